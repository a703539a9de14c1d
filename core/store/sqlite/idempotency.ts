import type { IdempotencyRecord } from '../port';
import type { Db } from './open';

export function idempotencyRepo(db: Db) {
  const get = db.prepare<[number, string], IdempotencyRecord>(
    'SELECT * FROM idempotency WHERE account_id = ? AND idem_key = ?',
  );
  const insert = db.prepare(`
    INSERT INTO idempotency (account_id, idem_key, fingerprint, status, body, request_id, created_at_ms)
    VALUES (@account_id, @idem_key, @fingerprint, @status, @body, @request_id, @created_at_ms)
    ON CONFLICT (account_id, idem_key) DO UPDATE SET
      fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
      request_id = excluded.request_id, created_at_ms = excluded.created_at_ms`);
  const purge = db.prepare('DELETE FROM idempotency WHERE created_at_ms < ?');
  return {
    get: (accountId: number, key: string): IdempotencyRecord | undefined => get.get(accountId, key),
    /** Upsert: a record past its retention may be replaced by a new execution under the same key. */
    insertInTx: (record: IdempotencyRecord): void => void insert.run(record),
    purgeOlderThan: (ms: number): number => purge.run(ms).changes,
  };
}

export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>;
