import type { IncomingMessage } from 'node:http';

/** The request headers checked on every /v1 request, duplicates kept (Node keeps only the first in req.headers). */
export interface GuardHeaders {
  host: string[];
  authorization: string[];
  origin: boolean;
  /** Some Sec-Fetch-Site header says cross-site or same-site (a browser request from another site). */
  crossSiteFetch: boolean;
}

/**
 * One pass over rawHeaders for everything the listener checks before the route runs. Reading req.headers
 * would build an object of all headers (~1 µs), and one scan per header name repeats the lower-casing; both
 * showed on the GET /v1/balance profile.
 */
export function scanGuardHeaders(req: IncomingMessage): GuardHeaders {
  const raw = req.rawHeaders;
  const out: GuardHeaders = { host: [], authorization: [], origin: false, crossSiteFetch: false };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Switching on the length first lower-cases only the names that can match.
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') out.host.push(raw[i + 1]!);
        break;
      case 6:
        if (name.toLowerCase() === 'origin') out.origin = true;
        break;
      case 13:
        if (name.toLowerCase() === 'authorization') out.authorization.push(raw[i + 1]!);
        break;
      case 14:
        if (name.toLowerCase() === 'sec-fetch-site') {
          const site = raw[i + 1]!.toLowerCase();
          if (site === 'cross-site' || site === 'same-site') out.crossSiteFetch = true;
        }
        break;
    }
  }
  return out;
}

/** Every value of one request header, duplicates included. `name` must be lower case. */
export function headerValues(req: IncomingMessage, name: string): string[] | undefined {
  const raw = req.rawHeaders;
  let values: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) (values ??= []).push(raw[i + 1]!);
  }
  return values;
}
