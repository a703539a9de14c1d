// A company database that stops answering (a restart, a failover): the store says busy (StoreBusyError) and
// /v1 answers 503 service_unavailable with Retry-After, never 500 and never a hang (core/store/postgres/pool.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { StoreBusyError } from '../../../../core/store';
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
});
