// PEK's 100 requests a minute: a sliding window that waits briefly for a slot or fails fast.
import { describe, expect, it } from 'vitest';
import { PekRateLimited, slidingWindowLimiter } from '../../../../../core/carriers/pek/rate-limit';

describe('PEK rate limiter', () => {
  it('lets `limit` requests through per window, then fails fast when the wait is longer than allowed', async () => {
    let t = 0;
    const limiter = slidingWindowLimiter({ limit: 3, windowMs: 60_000, maxWaitMs: 2_000, nowMs: () => t });
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await limiter.acquire(signal);
    await expect(limiter.acquire(signal)).rejects.toBeInstanceOf(PekRateLimited);
    t = 60_000; // the first slot frees
    await expect(limiter.acquire(signal)).resolves.toBeUndefined();
  });

  it('waits for a slot that frees within maxWaitMs', async () => {
    const limiter = slidingWindowLimiter({ limit: 1, windowMs: 30, maxWaitMs: 1_000 });
    const signal = new AbortController().signal;
    await limiter.acquire(signal);
    await expect(limiter.acquire(signal)).resolves.toBeUndefined();
  });

  it('a wait ends with the call when its signal fires', async () => {
    const limiter = slidingWindowLimiter({ limit: 1, windowMs: 60_000, maxWaitMs: 60_000 });
    const c = new AbortController();
    await limiter.acquire(c.signal);
    const pending = limiter.acquire(c.signal);
    c.abort(new Error('carrier timeout'));
    await expect(pending).rejects.toThrow('carrier timeout');
  });
});
