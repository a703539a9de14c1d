// DNS-rebinding and cross-site defences (research/reliability.md §4): an exact Host allowlist checked before
// authentication, and no requests that a browser marks as coming from another site.
import type { IncomingMessage } from 'node:http';
import { headerValues } from './headers';

/** Exactly `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (case-insensitive); one Host header only. */
export function isAllowedHost(req: IncomingMessage, port: number): boolean {
  const hosts = headerValues(req, 'host');
  if (!hosts || hosts.length !== 1) return false;
  const host = hosts[0]!.toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/**
 * Command-line tools send no Origin; browsers do. Any Origin (even a loopback one: the Electron renderer
 * uses IPC, never this listener) or Sec-Fetch-Site cross-site/same-site is refused. Other Sec-Fetch-*
 * headers are allowed because Node's own fetch sends `Sec-Fetch-Mode: cors`.
 */
export function isCrossSite(req: IncomingMessage): boolean {
  if (req.headers.origin !== undefined) return true;
  const site = req.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}
