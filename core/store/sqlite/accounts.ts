import { DEFAULT_THRESHOLD, type Threshold } from '../../contract/low-balance';
import type { AccountRow, LedgerMismatch } from '../port';
import type { Db } from './open';

const SELECT_ACCOUNT = `
  SELECT a.id, a.name, a.tier, a.balance, a.last_package, a.threshold, a.created_at,
         o.rps AS override_rps, o.burst AS override_burst
  FROM accounts a LEFT JOIN rate_limit_overrides o ON o.account_id = a.id`;

export function accountsRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO accounts (name, tier, balance, created_at, threshold) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const insertLedger = db.prepare(
    'INSERT INTO ledger (account_id, delta, kind, request_id, note, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byName = db.prepare<[string], AccountRow>(`${SELECT_ACCOUNT} WHERE a.name = ?`);
  const byId = db.prepare<[number], AccountRow>(`${SELECT_ACCOUNT} WHERE a.id = ?`);
  const all = db.prepare<[], AccountRow>(`${SELECT_ACCOUNT} ORDER BY a.id`);
  const topup = db.prepare(
    "UPDATE accounts SET balance = balance + ?, tier = 'paid', last_package = ? WHERE id = ? RETURNING balance",
  );
  const debit = db.prepare<[number], { balance: number }>(
    'UPDATE accounts SET balance = balance - 1 WHERE id = ? AND balance >= 1 RETURNING balance',
  );
  const setThreshold = db.prepare('UPDATE accounts SET threshold = ? WHERE id = ?');
  const upsertOverride = db.prepare(`
    INSERT INTO rate_limit_overrides (account_id, rps, burst, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (account_id) DO UPDATE SET rps = excluded.rps, burst = excluded.burst, updated_at = excluded.updated_at`);
  const deleteOverride = db.prepare('DELETE FROM rate_limit_overrides WHERE account_id = ?');
  const balanceOf = db.prepare<[number], { balance: number }>('SELECT balance FROM accounts WHERE id = ?');
  const mismatches = db.prepare<[], LedgerMismatch>(`
    SELECT a.id, a.name, a.balance, COALESCE(SUM(l.delta), 0) AS ledger_sum
    FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id
    GROUP BY a.id HAVING a.balance != COALESCE(SUM(l.delta), 0)`);

  return {
    create(name: string, balance: number, now: string, threshold: Threshold = DEFAULT_THRESHOLD): AccountRow {
      return db
        .transaction(() => {
          const { id } = insert.get(name, 'free', balance, now, threshold) as { id: number };
          insertLedger.run(id, balance, 'opening', null, 'opening balance', now);
          return byId.get(id)!;
        })
        .immediate();
    },
    byName: (name: string): AccountRow | undefined => byName.get(name),
    byId: (id: number): AccountRow | undefined => byId.get(id),
    list: (): AccountRow[] => all.all(),
    balance: (id: number): number | undefined => balanceOf.get(id)?.balance,
    /** Records a purchased package of N requests: balance += N, paid tier, package size kept for "auto". */
    topup(id: number, requests: number, now: string, note: string | null = null): number {
      return db
        .transaction(() => {
          const row = topup.get(requests, requests, id) as { balance: number } | undefined;
          if (!row) throw new Error(`no account with id ${id}`);
          insertLedger.run(id, requests, 'topup', null, note, now);
          return row.balance;
        })
        .immediate();
    },
    /** One request's deduction. Must run inside the caller's transaction; undefined when the balance is 0. */
    debitInTx(id: number, requestId: string, now: string): number | undefined {
      const row = debit.get(id);
      if (!row) return undefined;
      insertLedger.run(id, -1, 'rates', requestId, null, now);
      return row.balance;
    },
    setThreshold(id: number, threshold: Threshold): void {
      setThreshold.run(threshold, id);
    },
    setLimits(id: number, rps: number, burst: number, now: string): void {
      upsertOverride.run(id, rps, burst, now);
    },
    clearLimits(id: number): void {
      deleteOverride.run(id);
    },
    /** Accounts whose balance differs from the sum of their ledger: must be empty. */
    invariantViolations: () => mismatches.all(),
  };
}

export type AccountsRepo = ReturnType<typeof accountsRepo>;
