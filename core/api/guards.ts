// DNS-rebinding and cross-site defences (research/reliability.md §4): an exact Host allowlist checked before
// authentication, and no requests that a browser marks as coming from another site.
import { splitHostPort } from './company-listen';
import type { GuardHeaders } from './headers';

/** The Host values a listener on `port` accepts, in lower case; built once per listener. */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * The company-network mode (`--public-host`, core/api/company-listen.ts) replaces the loopback names: a name
 * given without a port is accepted bare, with 443 (https's own port, which some clients send) and with the
 * listener's port; a name given with a port only with that port (and bare when it is 443).
 */
export function publicAllowedHosts(entries: readonly string[], port: number): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of entries) {
    const { name, port: given } = splitHostPort(entry);
    if (given === undefined) {
      out.add(name).add(`${name}:443`).add(`${name}:${port}`);
    } else {
      out.add(entry);
      if (given === '443') out.add(name);
    }
  }
  return out;
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
