import type { Db } from './open';
import type { ChangeTopic, KeyAuthRow, KeyRow, KeysStore, NewKey } from '../port';
import type { SqliteRepos } from './repos';
import type { SqliteRunner } from './runner';

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

const KEYS: ReadonlySet<ChangeTopic> = new Set(['keys']);
const KEYS_AND_ACCOUNTS: ReadonlySet<ChangeTopic> = new Set(['keys', 'accounts']);

/** The port's slice: a key's name is checked inside the write that inserts it. */
export function sqliteKeys(r: SqliteRepos, run: SqliteRunner): KeysStore {
  return {
    insert: (key, sameName) =>
      run.write(KEYS, () => {
        const existing = r.keys.byDigest(key.digest);
        if (existing) return { ok: false as const, reason: 'digest_taken' as const, existing };
        if (!r.accounts.byId(key.account_id)) return { ok: false as const, reason: 'no_account' as const };
        if (key.revoked_at === null) {
          const taken = r.keys
            .list(key.account_id)
            .find((k) => k.revoked_at === null && sameName(k.name, key.name));
          if (taken) return { ok: false as const, reason: 'name_taken' as const, existing: taken };
        }
        r.keys.insert(key);
        return { ok: true as const, row: r.keys.byId(key.id)! };
      }),
    importChunk: (keys, newId, now) =>
      run.write(KEYS_AND_ACCOUNTS, () => {
        const done = { imported: 0, skipped: 0, accounts_created: [] as string[] };
        for (const { account, ...key } of keys) {
          if (r.keys.byDigest(key.digest)) {
            done.skipped++;
            continue;
          }
          let acc = r.accounts.byName(account);
          if (!acc) {
            acc = r.accounts.create(account, 0, now);
            done.accounts_created.push(account);
          }
          r.keys.insert({ ...key, id: newId(), account_id: acc.id });
          done.imported++;
        }
        return done;
      }),
    authLookup: (digest) => run.read(() => r.keys.authLookup(digest)),
    byId: (id) => run.read(() => r.keys.byId(id)),
    byDigest: (digest) => run.read(() => r.keys.byDigest(digest)),
    list: (accountId) => run.read(() => r.keys.list(accountId)),
    revoke: (id, now) =>
      run.write(KEYS, () => {
        if (!r.keys.byId(id)) return 'missing' as const;
        return r.keys.revoke(id, now) ? ('revoked' as const) : ('already' as const);
      }),
    // Rides along with the next group commit: a key's last use is not worth an fsync of its own.
    touch: (id, now) => run.grouped(KEYS, () => r.keys.touch(id, now)),
  };
}
