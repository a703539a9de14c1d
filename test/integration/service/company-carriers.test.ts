// Two services on one company database (#19): GET /v1/carriers says the same whichever instance answers, and
// a setting changed through one instance applies to the other's next request.
import { afterEach, describe, expect, it } from 'vitest';
import type { CarriersResponse } from '../../../core/contract/v1';
import { createKey } from '../../../core/operations';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { startTestService, type TestService } from '../../helpers/service';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function twoInstances(): Promise<[TestService, TestService]> {
  const url = await createTestDatabase('carriers');
  cleanups.push(() => dropTestDatabase(url));
  const start = async () => {
    const t = await startTestService({ database: { url }, warmUp: false });
    cleanups.push(() => t.close());
    return t;
  };
  return [await start(), await start()];
}

const statusOf = async (t: TestService, code: string) => {
  const res = await t.get('/v1/carriers');
  expect(res.status).toBe(200);
  return (res.json as CarriersResponse).carriers.find((c) => c.code === code)?.status;
};

describe('a company server with two instances', () => {
  it('reports a carrier unavailable on both once one instance saw it fail', async () => {
    const [a, b] = await twoInstances();
    const at = new Date();
    for (let i = 0; i < 3; i++) a.service.health.recordFailure('dpd', 'timeout', at);
    // The status row is written in the background: wait for it (bounded), then ask B.
    for (let i = 0; i < 50 && (await statusOf(b, 'dpd')) !== 'unavailable'; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await statusOf(b, 'dpd')).toBe('unavailable');
    expect(await statusOf(a, 'dpd')).toBe('unavailable');
    expect(b.service.health.get('dpd').status).toBe('unknown'); // B's own breaker never saw DPD fail
    a.service.health.recordAnswer('dpd', 40, new Date());
    for (let i = 0; i < 50 && (await statusOf(b, 'dpd')) !== 'available'; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await statusOf(b, 'dpd')).toBe('available');
  });

  it("applies a setting written through one instance to the other's next request", async () => {
    const [a, b] = await twoInstances();
    expect(await statusOf(b, 'dpd')).toBeDefined();
    await a.service.store.settings.write(
      [{ name: 'carriers.dpd.enabled', value: 'off' }],
      new Date().toISOString(),
    );
    // No wait: B's next request reads the change generations with its key lookup.
    expect(await statusOf(b, 'dpd')).toBeUndefined();
  });

  it("refuses a key revoked through one instance on the other's next request", async () => {
    const [a, b] = await twoInstances();
    const clock = { now: () => new Date() };
    const created = await createKey(a.service.store, clock, { account: 'default', name: 'revoke me' });
    expect((await b.get('/v1/balance', created.secret)).status).toBe(200);
    await a.service.store.keys.revoke(created.id, new Date().toISOString());
    expect((await b.get('/v1/balance', created.secret)).status).toBe(401);
  });
});
