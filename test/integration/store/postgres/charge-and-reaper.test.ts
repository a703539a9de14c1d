// A charge that gives its request's hold back in its own transaction, and the reaper giving expired holds back
// at the same moment, must never deadlock: both lock the hold's row before the account's (the reaper deletes
// holds, then updates accounts.held), so neither can wait for the other in a cycle. The order is forced here:
// a third transaction holds the account's row while the charge, then the reaper, queue behind it.
import { afterEach, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../../../core/store/postgres';
import type { ReserveResult } from '../../../../core/store/port';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Until `count` sessions of this database wait for a lock. */
async function waitersReach(store: PgStore, count: number): Promise<void> {
  for (const until = performance.now() + 10_000; performance.now() < until;) {
    const row = await store.db.first<{ n: number }>(
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (row!.n >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} sessions waited for a lock within 10 s`);
}

describe('company store: a charge and the reaper on one account', () => {
  it('never deadlock when the charged request’s hold has expired and is being reaped', async () => {
    const url = await createTestDatabase('reap');
    cleanups.push(() => dropTestDatabase(url));
    // Holds that expire at once: the reaper may take the hold of a request still being charged.
    const store = await openPgStore(url, { holdLeaseMs: 1 });
    cleanups.push(() => store.close());
    const now = new Date().toISOString();
    const acc = await store.accounts.create('reaped-while-charged', 5, now);
    const hold = (await store.reserve(acc.id, 10)) as Extract<ReserveResult, { ok: true }>;
    expect(hold.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 20));

    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const blocker = store.db.tx(async (c) => {
      await c.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [acc.id]);
      await gate;
    });
    let charge: ReturnType<PgStore['charge']>;
    let reaped: Promise<number>;
    try {
      // The charge queues first for the account's row; then the reaper comes for the expired hold, and either
      // finds it taken (skips it) or takes it and queues for the account's row behind the charge.
      charge = store.charge({
        accountId: acc.id,
        requestId: 'req_reapedwhilecharged1',
        now: new Date(),
        body: (balance) => JSON.stringify({ balance }),
        hold,
      });
      await waitersReach(store, 1);
      reaped = store.reapExpiredHolds();
      await Promise.race([reaped, waitersReach(store, 2)]);
    } finally {
      open();
      await blocker;
    }

    const [charged, reapedAccounts] = await Promise.all([charge, reaped]);
    expect(charged).toMatchObject({ ok: true, balance: 4 });
    expect(reapedAccounts).toBeLessThanOrEqual(1);
    await hold.release();
    // The hold was given back once, by whichever came first: nothing held, one charge.
    const row = await store.db.first<{ held: number; holds: number }>(
      'SELECT held, (SELECT count(*) FROM holds) AS holds FROM accounts WHERE id = $1',
      [acc.id],
    );
    expect(row).toEqual({ held: 0, holds: 0 });
    expect(await store.accounts.invariantViolations()).toEqual([]);
  }, 30_000);
});
