// Token buckets through the store port: a burst, then refusals with a Retry-After, refill over real time,
// independent buckets and a smaller burst that clamps. Time is the caller's monotonic clock (performance.now),
// which an implementation shared by several processes may replace by its own, so the tests wait for real and
// bound the waits generously.
import { describe, expect, it } from 'vitest';
import type { BucketLimits } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { sleep, unique, useStore } from './harness';

/** Refills so slowly that no token comes back within a test. */
const SLOW = 0.001;

describe.each(STORE_IMPLEMENTATIONS)('token buckets ($name)', (impl) => {
  const fx = useStore(impl);
  const take = (bucket: string, limits: BucketLimits) =>
    fx.store.takeToken(bucket, limits, performance.now());

  it('grants the burst, then refuses with retryAfterSeconds of at least one', async () => {
    const bucket = unique('acct');
    const limits = { rps: SLOW, burst: 3 };
    const granted = [await take(bucket, limits), await take(bucket, limits), await take(bucket, limits)];
    expect(granted.map((r) => r.allowed)).toEqual([true, true, true]);
    expect(granted.map((r) => r.remaining)).toEqual([2, 1, 0]);
    for (const r of granted) expect(r.retryAfterSeconds).toBe(0);

    const refused = await take(bucket, limits);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(refused.retryAfterSeconds);
    // A refusal takes nothing, and is repeated.
    expect((await take(bucket, limits)).allowed).toBe(false);
  });

  it('says when the next token comes: about 1 / rps seconds', async () => {
    const bucket = unique('acct');
    const limits = { rps: 0.5, burst: 1 };
    expect((await take(bucket, limits)).allowed).toBe(true);
    const refused = await take(bucket, limits);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);
  });

  it('refills over time', async () => {
    const bucket = unique('acct');
    const limits = { rps: 20, burst: 2 };
    expect((await take(bucket, limits)).allowed).toBe(true);
    expect((await take(bucket, limits)).allowed).toBe(true);
    const refusedAt = performance.now();
    expect((await take(bucket, limits)).allowed).toBe(false);

    // One token takes 50 ms at 20 per second; wait for it with a generous bound.
    let allowed = false;
    while (!allowed && performance.now() - refusedAt < 10_000) {
      await sleep(20);
      allowed = (await take(bucket, limits)).allowed;
    }
    expect(allowed).toBe(true);
  });

  it('keeps buckets of different names apart', async () => {
    const a = unique('acct');
    const b = unique('acct');
    const limits = { rps: SLOW, burst: 1 };
    expect((await take(a, limits)).allowed).toBe(true);
    expect((await take(a, limits)).allowed).toBe(false);
    expect((await take(b, limits)).allowed).toBe(true);
    expect((await take(b, limits)).allowed).toBe(false);
  });

  it('clamps the tokens at once when a call passes a smaller burst', async () => {
    const bucket = unique('acct');
    expect(await take(bucket, { rps: SLOW, burst: 5 })).toMatchObject({ allowed: true, remaining: 4 });
    // An admin lowered the account's burst to 2: four stored tokens become two.
    const small = { rps: SLOW, burst: 2 };
    expect(await take(bucket, small)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await take(bucket, small)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await take(bucket, small)).allowed).toBe(false);
  });

  it('grants exactly the burst to concurrent takes', async () => {
    const bucket = unique('acct');
    const limits = { rps: SLOW, burst: 4 };
    const results = await Promise.all(Array.from({ length: 12 }, () => take(bucket, limits)));
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
  });
});
