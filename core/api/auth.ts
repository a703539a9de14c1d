import { digestKey, digestsEqual, isPlausibleSecret } from '../keys/format';
import type { CachedKey, KeyCache } from './key-cache';

export type AuthResult =
  ({ ok: true } & CachedKey) | { ok: false; code: 'invalid_api_key' | 'api_key_revoked'; presented: boolean };

/**
 * The last Authorization header seen on one connection and its key digest. Keep-alive clients send the same
 * header on every request, and SHA-256 was the largest cost left on GET /v1/balance. It lives as long as the
 * connection, which holds the same header in its own buffers anyway.
 */
export interface ConnectionAuthMemo {
  header?: string;
  digest?: string;
}

/**
 * `authorization`: every Authorization header of the request (more than one is refused). A key in the cache
 * is answered at once; only a key the cache does not hold waits for the store.
 */
export function authenticate(
  authorization: string[],
  keys: KeyCache,
  memo: ConnectionAuthMemo,
): AuthResult | Promise<AuthResult> {
  if (authorization.length !== 1) {
    return { ok: false, code: 'invalid_api_key', presented: authorization.length > 0 };
  }
  const header = authorization[0]!;
  let digest = memo.header === header ? memo.digest : undefined;
  let secret: string | undefined;
  if (digest === undefined) {
    const m = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!m) return { ok: false, code: 'invalid_api_key', presented: true };
    secret = m[1]!;
    digest = digestKey(secret);
  }
  const key = keys.cached(digest);
  if (key) return accepted(key, header, digest, memo);
  // The checksum rejects typos and look-alikes without a database query.
  if (secret !== undefined && !isPlausibleSecret(secret)) {
    return { ok: false, code: 'invalid_api_key', presented: true };
  }
  const known = digest;
  return keys
    .load(known)
    .then((loaded) =>
      !loaded || !digestsEqual(loaded.row.digest, known)
        ? { ok: false, code: 'invalid_api_key', presented: true }
        : accepted(loaded, header, known, memo),
    );
}

function accepted(key: CachedKey, header: string, digest: string, memo: ConnectionAuthMemo): AuthResult {
  memo.header = header;
  memo.digest = digest;
  if (key.row.revoked_at !== null) return { ok: false, code: 'api_key_revoked', presented: true };
  return { ok: true, row: key.row, lastUsedMs: key.lastUsedMs };
}

export function wwwAuthenticate(presented: boolean): string {
  return presented ? 'Bearer realm="ratedesk", error="invalid_token"' : 'Bearer realm="ratedesk"';
}
