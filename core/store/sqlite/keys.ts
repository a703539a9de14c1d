import type { Db } from './open';
import type { KeyAuthRow, KeyRow, NewKey } from '../port';

const SELECT_KEY = `
  SELECT k.id, k.account_id, a.name AS account_name, k.name, k.digest, k.prefix, k.last_four, k.origin,
         k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

export function keysRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO api_keys (id, account_id, name, digest, prefix, last_four, origin, created_at, last_used_at, revoked_at)
    VALUES (@id, @account_id, @name, @digest, @prefix, @last_four, @origin, @created_at, @last_used_at, @revoked_at)`);
  const auth = db.prepare<[string], KeyAuthRow>(`
    SELECT k.id AS key_id, k.digest, k.revoked_at, k.last_used_at, a.id AS account_id, a.tier, a.balance,
           o.rps AS override_rps, o.burst AS override_burst
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
    LEFT JOIN rate_limit_overrides o ON o.account_id = a.id
    WHERE k.digest = ?`);
  const byId = db.prepare<[string], KeyRow>(`${SELECT_KEY} WHERE k.id = ?`);
  const byDigest = db.prepare<[string], KeyRow>(`${SELECT_KEY} WHERE k.digest = ?`);
  const all = db.prepare<[], KeyRow>(`${SELECT_KEY} ORDER BY k.created_at, k.id`);
  const ofAccount = db.prepare<[number], KeyRow>(
    `${SELECT_KEY} WHERE k.account_id = ? ORDER BY k.created_at, k.id`,
  );
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');

  return {
    insert: (key: NewKey): void => void insert.run(key),
    authLookup: (digest: string): KeyAuthRow | undefined => auth.get(digest),
    byId: (id: string): KeyRow | undefined => byId.get(id),
    byDigest: (digest: string): KeyRow | undefined => byDigest.get(digest),
    list: (accountId?: number): KeyRow[] => (accountId === undefined ? all.all() : ofAccount.all(accountId)),
    /** Permanent: a revoked key is never re-activated. Returns false when it was already revoked. */
    revoke: (id: string, now: string): boolean => revoke.run(now, id).changes === 1,
    touch: (id: string, now: string): void => void touch.run(now, id),
  };
}

export type KeysRepo = ReturnType<typeof keysRepo>;
