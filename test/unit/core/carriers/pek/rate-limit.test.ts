// PEK's 100 requests a minute: a sliding window that waits briefly for a slot or fails fast, and gives each asker
// its fair share of it (#16).
import { describe, expect, it } from 'vitest';
import { fairShare, PekRateLimited, slidingWindowLimiter } from '../../../../../core/carriers/pek/rate-limit';

describe('PEK rate limiter', () => {
  // #16 changed this on purpose: one asker alone gets half of the window (3 of 6), so the next finds room.
  it('lets an asker’s share through per window, then fails fast when the wait is longer than allowed', async () => {
    let t = 0;
    const limiter = slidingWindowLimiter({ limit: 6, windowMs: 60_000, maxWaitMs: 2_000, nowMs: () => t });
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await limiter.acquire(signal);
    await expect(limiter.acquire(signal)).rejects.toBeInstanceOf(PekRateLimited);
    t = 60_000; // the first slot frees
    await expect(limiter.acquire(signal)).resolves.toBeUndefined();
  });

  it('waits for a slot that frees within maxWaitMs', async () => {
    const limiter = slidingWindowLimiter({ limit: 2, windowMs: 30, maxWaitMs: 1_000 });
    const signal = new AbortController().signal;
    await limiter.acquire(signal);
    await expect(limiter.acquire(signal)).resolves.toBeUndefined();
  });

  it('a wait ends with the call when its signal fires', async () => {
    const limiter = slidingWindowLimiter({ limit: 2, windowMs: 60_000, maxWaitMs: 60_000 });
    const c = new AbortController();
    await limiter.acquire(c.signal);
    const pending = limiter.acquire(c.signal);
    c.abort(new Error('carrier timeout'));
    await expect(pending).rejects.toThrow('carrier timeout');
  });

  it('gives each asker its fair share: one account flooding PEK leaves room for everyone else', async () => {
    const t = 0;
    const limiter = slidingWindowLimiter({ limit: 100, windowMs: 60_000, maxWaitMs: 0, nowMs: () => t });
    const signal = new AbortController().signal;
    // The flood: one account takes what it may, half the minute, then is refused in its own words.
    let flood = 0;
    for (;;) {
      try {
        await limiter.acquire(signal, 'attacker');
        flood += 1;
      } catch (err) {
        expect(err).toBeInstanceOf(PekRateLimited);
        expect((err as Error).message).toMatch(
          /^not called: this account's share of PEK's 100 requests a minute \(50\) is used up/,
        );
        break;
      }
    }
    expect(flood).toBe(50);
    // The victim arrives to room: a quote's four calls all go, and more.
    for (let i = 0; i < 33; i++) await limiter.acquire(signal, 'victim');
    // Two askers now: each may hold 50; the attacker still none more.
    await expect(limiter.acquire(signal, 'attacker')).rejects.toBeInstanceOf(PekRateLimited);
  });

  it('fair shares: half for one asker, an equal part of the window for several, never none', () => {
    expect(fairShare(100, 1)).toBe(50);
    expect(fairShare(100, 2)).toBe(50);
    expect(fairShare(100, 3)).toBe(33);
    expect(fairShare(100, 500)).toBe(1);
  });
});
