import { afterEach, describe, expect, it } from 'vitest';
import { clearLimits, setLimits, topup } from '../../../core/operations';
import { startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const clock = { now: () => new Date() };

describe('rate limits per account', () => {
  it('free tier: a burst of 5, then 429 rate_limit_exceeded with an integer Retry-After ≥ 1', async () => {
    t = await startTestService({ tierLimits: true });
    const results = await Promise.all(Array.from({ length: 12 }, () => t!.get('/v1/balance')));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    // 5 tokens at t=0 plus at most one refilled while the requests are in flight (2/s).
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(6);
    expect(limited.length).toBe(12 - ok.length);
    for (const r of limited) {
      expect(r.json.error.code).toBe('rate_limit_exceeded');
      expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['ratelimit']).toMatch(/r=0/);
    }
  });

  it('all keys of an account share one bucket', async () => {
    t = await startTestService({ tierLimits: true });
    const keys = [t.key, await t.newKey(), await t.newKey()];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t!.get('/v1/balance', keys[i % 3])),
    );
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(6);
  });

  it('waiting Retry-After seconds is enough', async () => {
    t = await startTestService({ tierLimits: true });
    let r = await t.get('/v1/balance');
    while (r.status === 200) r = await t.get('/v1/balance');
    await new Promise((res) => setTimeout(res, Number(r.headers['retry-after']) * 1000));
    expect((await t.get('/v1/balance')).status).toBe(200);
  });

  it('an admin override and a top-up (paid tier) apply on the next request; clearing restores the tier', async () => {
    t = await startTestService({ tierLimits: true });
    await setLimits(t.service.store, clock, { account: 'default', rps: 1, burst: 1 });
    const two = await Promise.all([t.get('/v1/balance'), t.get('/v1/balance')]);
    expect(two.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(two.find((r) => r.status === 200)!.headers['ratelimit-policy']).toBe('"account";q=1;w=1');
    await clearLimits(t.service.store, clock, { account: 'default' });
    await topup(t.service.store, clock, { account: 'default', requests: 1000 });
    await new Promise((res) => setTimeout(res, 1100));
    const r = await t.get('/v1/balance');
    expect(r.headers['ratelimit-policy']).toBe('"account";q=20;w=2');
    expect(r.json.balance).toBe(1100);
  });

  it('failed authentications never drain an account bucket', async () => {
    t = await startTestService({ tierLimits: true });
    await Promise.all(Array.from({ length: 20 }, () => t!.get('/v1/balance', 'rdk_nope')));
    const ok = await Promise.all(Array.from({ length: 5 }, () => t!.get('/v1/balance')));
    expect(ok.every((r) => r.status === 200)).toBe(true);
  });
});
