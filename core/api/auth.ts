import type { IncomingMessage } from 'node:http';
import { headerValues } from './headers';
import { digestKey, digestsEqual, isPlausibleSecret } from '../keys/format';
import type { KeyAuthRow, KeysRepo } from '../store/keys';

export type AuthResult =
  | { ok: true; row: KeyAuthRow }
  | { ok: false; code: 'invalid_api_key' | 'api_key_revoked'; presented: boolean };

const QUERY_KEY_PARAMS = ['api_key', 'apikey', 'access_token', 'key', 'token'];

/** A key in the query string leaks into logs and history: refused even when the header is right. */
export function hasKeyInQuery(url: URL): boolean {
  return QUERY_KEY_PARAMS.some((p) => url.searchParams.has(p));
}

export function authenticate(req: IncomingMessage, keys: KeysRepo): AuthResult {
  const values = headerValues(req, 'authorization');
  if (!values || values.length !== 1) return { ok: false, code: 'invalid_api_key', presented: !!values };
  const m = /^Bearer +(\S+)\s*$/i.exec(values[0]!);
  if (!m) return { ok: false, code: 'invalid_api_key', presented: true };
  const secret = m[1]!;
  // The checksum rejects typos and look-alikes without a database query.
  if (!isPlausibleSecret(secret)) return { ok: false, code: 'invalid_api_key', presented: true };
  const digest = digestKey(secret);
  const row = keys.authLookup(digest);
  if (!row || !digestsEqual(row.digest, digest))
    return { ok: false, code: 'invalid_api_key', presented: true };
  if (row.revoked_at !== null) return { ok: false, code: 'api_key_revoked', presented: true };
  return { ok: true, row };
}

export function wwwAuthenticate(presented: boolean): string {
  return presented ? 'Bearer realm="ratedesk", error="invalid_token"' : 'Bearer realm="ratedesk"';
}
