// A company database that stops answering (a restart, a failover): the store says busy (StoreBusyError) and
// /v1 answers 503 service_unavailable with Retry-After, never 500 and never a hang (core/store/postgres/pool.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { StoreBusyError } from '../../../../core/store';
import { openPgStore } from '../../../../core/store/postgres';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';
import { startCluster, type PgCluster } from '../../../helpers/postgres-cluster';
import { startTestService, type TestService } from '../../../helpers/service';

let cluster: PgCluster | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  cluster?.stop();
  t = undefined;
  cluster = undefined;
});

describe('a company database that stops answering', () => {
  it('makes the store say busy and /v1 answer 503 with Retry-After', async () => {
    // A cluster of its own: this test stops it.
    cluster = await startCluster({ settings: { fsync: 'off' } });
    const url = await cluster.createDatabase('gone');
    t = await startTestService({ database: { url }, warmUp: false });
    expect((await t.get('/v1/balance')).status).toBe(200);

    cluster.stop();
    const started = performance.now();
    const res = await t.get('/v1/balance');
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
    // Bounded by the pool's connection timeout (5 s), with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(15_000);
    await expect(t.service.store.accounts.list()).rejects.toBeInstanceOf(StoreBusyError);
  });

  it('rolls a transaction back, and keeps the process, when its connection is killed halfway', async () => {
    const url = await createTestDatabase('killed');
    const store = await openPgStore(url);
    try {
      const acc = await store.accounts.create('halfway', 5, new Date().toISOString());
      const killed = store.db.tx(async (c) => {
        await c.query('UPDATE accounts SET balance = 0 WHERE id = $1', [acc.id]);
        await c.query('SELECT pg_terminate_backend(pg_backend_pid())');
      });
      await expect(killed).rejects.toBeInstanceOf(StoreBusyError);
      // Still here (an 'error' event on the checked-out client would have ended the process), and nothing
      // of the transaction was kept.
      expect(await store.accounts.balance(acc.id)).toBe(5);
    } finally {
      await store.close();
      await dropTestDatabase(url);
    }
  });
});
