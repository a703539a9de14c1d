// DNS-rebinding and cross-site defences (research/reliability.md §4): an exact Host allowlist checked before
// authentication, and no requests that a browser marks as coming from another site.
import type { GuardHeaders } from './headers';

/** The Host values a listener on `port` accepts, in lower case; built once per listener. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** Exactly one Host header, and it is one of `allowed` (case-insensitive). */
export function isAllowedHost(headers: GuardHeaders, allowed: ReadonlySet<string>): boolean {
  if (headers.host.length !== 1) return false;
  const host = headers.host[0]!;
  return allowed.has(host) || allowed.has(host.toLowerCase());
}

/**
 * Command-line tools send no Origin; browsers do. Any Origin (even a loopback one: the Electron renderer
 * uses IPC, never this listener) or Sec-Fetch-Site cross-site/same-site is refused. Other Sec-Fetch-*
 * headers are allowed because Node's own fetch sends `Sec-Fetch-Mode: cors`.
 */
export function isCrossSite(headers: GuardHeaders): boolean {
  return headers.origin || headers.crossSiteFetch;
}
