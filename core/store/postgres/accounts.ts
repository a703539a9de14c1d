// Accounts and keys on the company database. Each method is one statement or one transaction; a name taken
// by a concurrent writer surfaces as the unique violation it is (StoreConflictError), never as a duplicate.
import { DEFAULT_THRESHOLD } from '../../contract/low-balance';
import {
  StoreConflictError,
  type AccountRow,
  type AccountsStore,
  type ChangeTopic,
  type KeyAuthRow,
  type KeyRow,
  type KeysStore,
  type LedgerMismatch,
} from '../port';
import type { PgDb, Queryable } from './pool';

const SELECT_ACCOUNT = `
  SELECT a.id, a.name, a.tier, a.balance, a.last_package, a.threshold, a.created_at,
         o.rps AS override_rps, o.burst AS override_burst
  FROM accounts a LEFT JOIN rate_limit_overrides o ON o.account_id = a.id`;

const SELECT_KEY = `
  SELECT k.id, k.account_id, a.name AS account_name, k.name, k.digest, k.prefix, k.last_four, k.origin,
         k.created_at, k.last_used_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;

/** The listener's lookup, and the change generations read in the same statement (change-feed.ts). */
export const AUTH_LOOKUP = `
  SELECT k.id AS key_id, k.digest, k.revoked_at, k.last_used_at, a.id AS account_id, a.tier, a.balance,
         o.rps AS override_rps, o.burst AS override_burst, g.generations
  FROM (SELECT json_object_agg(topic, generation) AS generations FROM change_generations) g
  LEFT JOIN api_keys k ON k.digest = $1
  LEFT JOIN accounts a ON a.id = k.account_id
  LEFT JOIN rate_limit_overrides o ON o.account_id = a.id`;

const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}

export async function accountById(q: Queryable, id: number): Promise<AccountRow | undefined> {
  return (await q.query<AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = $1`, [id])).rows[0];
}

export async function accountByName(q: Queryable, name: string): Promise<AccountRow | undefined> {
  return (await q.query<AccountRow>(`${SELECT_ACCOUNT} WHERE a.name = $1`, [name])).rows[0];
}

/** The account and its opening ledger row, inside the caller's transaction. */
export async function insertAccount(
  q: Queryable,
  name: string,
  balance: number,
  now: string,
  threshold: string = DEFAULT_THRESHOLD,
): Promise<AccountRow> {
  const { id } = (
    await q.query<{ id: number }>(
      `INSERT INTO accounts (name, tier, balance, created_at, threshold) VALUES ($1, 'free', $2, $3, $4) RETURNING id`,
      [name, balance, now, threshold],
    )
  ).rows[0]!;
  await q.query(
    `INSERT INTO ledger (account_id, delta, kind, request_id, note, created_at)
     VALUES ($1, $2, 'opening', NULL, 'opening balance', $3)`,
    [id, balance, now],
  );
  return (await accountById(q, id))!;
}

export function pgAccounts(db: PgDb): AccountsStore {
  return {
    async create(name, balance, now, threshold) {
      try {
        return await db.tx((c) => insertAccount(c, name, balance, now, threshold));
      } catch (error) {
        if (isUniqueViolation(error)) throw new StoreConflictError(`account ${JSON.stringify(name)} exists`);
        throw error;
      }
    },
    seedIfEmpty: (name, balance, now) =>
      db.tx(async (c) => {
        // Two instances starting on an empty database seed once: the second waits for the first's lock.
        await c.query('LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE');
        if ((await c.query('SELECT 1 FROM accounts LIMIT 1')).rowCount) return false;
        await insertAccount(c, name, balance, now);
        return true;
      }),
    byName: (name) => db.first<AccountRow>(`${SELECT_ACCOUNT} WHERE a.name = $1`, [name]),
    byId: (id) => db.first<AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = $1`, [id]),
    list: () => db.rows<AccountRow>(`${SELECT_ACCOUNT} ORDER BY a.id`),
    balance: async (id) =>
      (await db.first<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [id]))?.balance,
    topup: (id, requests, now, note = null) =>
      db.tx(async (c) => {
        const done = await c.query(
          `UPDATE accounts SET balance = balance + $1, tier = 'paid', last_package = $1 WHERE id = $2`,
          [requests, id],
        );
        if (done.rowCount === 0) return undefined;
        await c.query(
          `INSERT INTO ledger (account_id, delta, kind, request_id, note, created_at)
           VALUES ($1, $2, 'topup', NULL, $3, $4)`,
          [id, requests, note, now],
        );
        return accountById(c, id);
      }),
    setThreshold: async (id, threshold) => {
      await db.rows('UPDATE accounts SET threshold = $1 WHERE id = $2', [threshold, id]);
      return db.first<AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = $1`, [id]);
    },
    setLimits: (id, rps, burst, now) =>
      db.tx(async (c) => {
        if (!(await accountById(c, id))) return undefined;
        await c.query(
          `INSERT INTO rate_limit_overrides (account_id, rps, burst, updated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id) DO UPDATE
             SET rps = excluded.rps, burst = excluded.burst, updated_at = excluded.updated_at`,
          [id, rps, burst, now],
        );
        return accountById(c, id);
      }),
    clearLimits: async (id) => {
      await db.rows('DELETE FROM rate_limit_overrides WHERE account_id = $1', [id]);
      return db.first<AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = $1`, [id]);
    },
    invariantViolations: () =>
      db.rows<LedgerMismatch>(`
        SELECT a.id, a.name, a.balance, COALESCE(SUM(l.delta), 0)::bigint AS ledger_sum
        FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id
        GROUP BY a.id HAVING a.balance <> COALESCE(SUM(l.delta), 0)
        ORDER BY a.id`),
  };
}

const INSERT_KEY = `
  INSERT INTO api_keys (id, account_id, name, digest, prefix, last_four, origin, created_at, last_used_at, revoked_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

function keyValues(k: Omit<KeyRow, 'account_name'>): unknown[] {
  return [
    k.id,
    k.account_id,
    k.name,
    k.digest,
    k.prefix,
    k.last_four,
    k.origin,
    k.created_at,
    k.last_used_at,
    k.revoked_at,
  ];
}

/** `authLookup` is the store's (store.ts): it also carries the change generations. */
export function pgKeys(db: PgDb): Omit<KeysStore, 'authLookup'> {
  const byDigest = (q: Queryable, digest: string) =>
    q.query<KeyRow>(`${SELECT_KEY} WHERE k.digest = $1`, [digest]).then((r) => r.rows[0]);
  return {
    async insert(key, sameName) {
      try {
        return await db.tx(async (c) => {
          // The account row lock orders two inserts for one account, so the name check below sees the other.
          const account = await c.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [key.account_id]);
          const existing = await byDigest(c, key.digest);
          if (existing) return { ok: false as const, reason: 'digest_taken' as const, existing };
          if (account.rowCount === 0) return { ok: false as const, reason: 'no_account' as const };
          if (key.revoked_at === null) {
            const active = await c.query<KeyRow>(
              `${SELECT_KEY} WHERE k.account_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at, k.id`,
              [key.account_id],
            );
            const taken = active.rows.find((k) => sameName(k.name, key.name));
            if (taken) return { ok: false as const, reason: 'name_taken' as const, existing: taken };
          }
          await c.query(INSERT_KEY, keyValues(key));
          return { ok: true as const, row: (await byDigest(c, key.digest))! };
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Another instance stored the same digest between our check and our insert.
        const existing = await byDigest(db.pool, key.digest);
        return { ok: false, reason: 'digest_taken', ...(existing ? { existing } : {}) };
      }
    },
    importChunk: (keys, newId, now) =>
      db.tx(async (c) => {
        const done = { imported: 0, skipped: 0, accounts_created: [] as string[] };
        for (const { account, ...key } of keys) {
          const inserted = await c.query('SELECT 1 FROM api_keys WHERE digest = $1', [key.digest]);
          if (inserted.rowCount) {
            done.skipped++;
            continue;
          }
          let acc = await accountByName(c, account);
          if (!acc) {
            acc = await insertAccount(c, account, 0, now);
            done.accounts_created.push(account);
          }
          await c.query(INSERT_KEY, keyValues({ ...key, id: newId(), account_id: acc.id }));
          done.imported++;
        }
        return done;
      }),
    byId: (id) => db.first<KeyRow>(`${SELECT_KEY} WHERE k.id = $1`, [id]),
    byDigest: (digest) => byDigest(db.pool, digest),
    list: (accountId) =>
      accountId === undefined
        ? db.rows<KeyRow>(`${SELECT_KEY} ORDER BY k.created_at, k.id`)
        : db.rows<KeyRow>(`${SELECT_KEY} WHERE k.account_id = $1 ORDER BY k.created_at, k.id`, [accountId]),
    async revoke(id, now) {
      const row = await db.first<{ revoked: boolean }>(
        `WITH r AS (UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM r) AS revoked FROM api_keys WHERE id = $1`,
        [id, now],
      );
      return row === undefined ? 'missing' : row.revoked ? 'revoked' : 'already';
    },
    touch: async (id, now) => {
      await db.relaxedRows('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, now], 'touch_key');
    },
  };
}

/** A key's row (its columns null when no key has the digest) and the generations of every topic. */
export type AuthLookupRow = { [K in keyof KeyAuthRow]: KeyAuthRow[K] | null } & {
  generations: Record<ChangeTopic, number>;
};
