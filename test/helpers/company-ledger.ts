// The company server's ledger as the database holds it, and the money oracle of the proof test
// (test/reliability/company-server.test.ts): what clients received against the rows, read through
// PgStore.db (the implementation's own statements, not the port), so the oracle does not take the store's word.
import { expect } from 'vitest';
import type { PgStore } from '../../core/store/postgres';
import type { PreparedAccount, Reply } from './company-server';

export interface AccountRowSnap {
  id: number;
  name: string;
  balance: number;
  held: number;
  /** Sum of the ledger's non-`rates` rows: what the account was given. */
  credited: number;
  /** The ledger's `rates` rows. */
  charges: number;
}

export interface Tables {
  accounts: Map<string, AccountRowSnap>;
  /** `rates` ledger rows: request_id → account id (every one has a request_id), and how many rows had it. */
  chargeRequestIds: Map<string, { accountId: number; rows: number }>;
  idempotency: Array<{
    accountId: number;
    key: string;
    status: number | null;
    body: string | null;
    requestId: string | null;
  }>;
  holds: number;
}

/**
 * Everything in one REPEATABLE READ transaction: one consistent state of the database. `settledWithinMs`:
 * first wait (that long at most) for the holds and claims of answered calls to be given back: an instance
 * gives them back just after its answer leaves, so a client can hear before the release commits. A bound
 * far below the leases, so what is read is the releases and not the reaper's work.
 */
export async function readTables(
  store: PgStore,
  options: { settledWithinMs?: number } = {},
): Promise<Tables> {
  const until = performance.now() + (options.settledWithinMs ?? 0);
  while (performance.now() < until && (await inFlightRows(store)) > 0)
    await new Promise((r) => setTimeout(r, 20));
  const client = await store.db.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const accounts = new Map<string, AccountRowSnap>();
    const byId = new Map<number, AccountRowSnap>();
    for (const a of (
      await client.query<{ id: number; name: string; balance: number; held: number }>(
        'SELECT id, name, balance, held FROM accounts ORDER BY id',
      )
    ).rows) {
      const snap = { ...a, credited: 0, charges: 0 };
      accounts.set(a.name, snap);
      byId.set(a.id, snap);
    }
    const chargeRequestIds = new Map<string, { accountId: number; rows: number }>();
    for (const r of (
      await client.query<{ account_id: number; delta: number; kind: string; request_id: string | null }>(
        'SELECT account_id, delta, kind, request_id FROM ledger ORDER BY id',
      )
    ).rows) {
      const account = byId.get(r.account_id)!;
      if (r.kind !== 'rates') {
        account.credited += r.delta;
        continue;
      }
      if (r.delta !== -1) throw new Error(`a rates ledger row of ${r.delta}`);
      account.charges++;
      const id = r.request_id ?? '(null)';
      const seen = chargeRequestIds.get(id);
      chargeRequestIds.set(id, { accountId: r.account_id, rows: (seen?.rows ?? 0) + 1 });
    }
    const idempotency = (
      await client.query<{
        account_id: number;
        idem_key: string;
        status: number | null;
        body: string | null;
        request_id: string | null;
      }>('SELECT account_id, idem_key, status, body, request_id FROM idempotency')
    ).rows.map((r) => ({
      accountId: r.account_id,
      key: r.idem_key,
      status: r.status,
      body: r.body,
      requestId: r.request_id,
    }));
    const holds = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM holds')).rows[0]!.n;
    await client.query('COMMIT');
    return { accounts, chargeRequestIds, idempotency, holds };
  } finally {
    client.release();
  }
}

/** Holds and running claims: rows that only calls in flight (or dead instances) leave. */
async function inFlightRows(store: PgStore): Promise<number> {
  const row = await store.db.first<{ n: number }>(
    `SELECT (SELECT count(*) FROM holds) + (SELECT count(*) FROM idempotency WHERE status IS NULL) AS n`,
  );
  return row!.n;
}

/** Balance holds currently counted, over all accounts (accounts.held). */
export async function heldTotal(store: PgStore): Promise<number> {
  const row = await store.db.first<{ n: number }>('SELECT coalesce(sum(held), 0)::int AS n FROM accounts');
  return row!.n;
}

/**
 * The money oracle over what clients received and what the tables hold, for the accounts given:
 *  - every 200 a client received is a `rates` ledger row of its account, exactly one, with its request_id;
 *  - every `rates` row was answered to some client (a 200 seen), so the ledger has no charge nobody got;
 *  - balance = what was credited − the `rates` rows, and the answered balances are exactly credited−1 down
 *    to the balance, each once: the debits took turns, none saw another's balance;
 *  - every stored reply is a charge and every keyed charge has its stored reply; no hold and no claim is left.
 */
export function checkCharges(
  tables: Tables,
  seen: ReadonlyArray<{ account: PreparedAccount; reply: Reply | undefined }>,
): void {
  const answered = new Map<number, Map<string, number>>();
  for (const { account, reply } of seen) {
    if (reply?.kind !== 'response' || reply.status !== 200) continue;
    const body = JSON.parse(reply.text) as { request_id: string; balance_remaining: number };
    const charge = tables.chargeRequestIds.get(body.request_id);
    expect(charge, `the 200 ${body.request_id} is in the ledger`).toEqual({ accountId: account.id, rows: 1 });
    const mine = answered.get(account.id) ?? new Map<string, number>();
    mine.set(body.request_id, body.balance_remaining);
    answered.set(account.id, mine);
  }
  for (const account of new Set(seen.map((s) => s.account))) {
    const snap = tables.accounts.get(account.name)!;
    const mine = answered.get(account.id) ?? new Map<string, number>();
    expect(snap.held, `${account.name}: no hold left`).toBe(0);
    expect(snap.balance, `${account.name}: balance = credited − charges`).toBe(snap.credited - snap.charges);
    expect(mine.size, `${account.name}: every charge was answered`).toBe(snap.charges);
    const balances = [...mine.values()].sort((a, b) => b - a);
    expect(balances).toEqual(Array.from({ length: snap.charges }, (_, i) => snap.credited - 1 - i));
    const records = tables.idempotency.filter((r) => r.accountId === account.id);
    expect(
      records.filter((r) => r.status === null).map((r) => r.key),
      'no claim left',
    ).toEqual([]);
    for (const r of records)
      expect(tables.chargeRequestIds.get(r.requestId!)?.accountId, `record ${r.key} is a charge`).toBe(
        account.id,
      );
  }
  expect(tables.holds).toBe(0);
}
