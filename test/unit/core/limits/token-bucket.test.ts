import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../../core/limits/token-bucket';

function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('TokenBuckets', () => {
  it('free tier: 5 at once, then 2 per second', () => {
    const c = fakeClock();
    const b = new TokenBuckets(c.now);
    const limits = { rps: 2, burst: 5 };
    const first = Array.from({ length: 100 }, () => b.take(1, limits).allowed);
    expect(first.filter(Boolean).length).toBe(5);
    const refused = b.take(1, limits);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(1);
    c.advance(500);
    expect(b.take(1, limits).allowed).toBe(true);
    expect(b.take(1, limits).allowed).toBe(false);
  });

  it('sustained 20 rps offered from t=0 to t=10 s on the free tier accepts 5 + 2×10 = 25', () => {
    const c = fakeClock();
    const b = new TokenBuckets(c.now);
    let accepted = 0;
    for (let i = 0; i <= 200; i++) {
      if (b.take(7, { rps: 2, burst: 5 }).allowed) accepted++;
      c.advance(50);
    }
    expect(accepted).toBe(25);
  });

  it('paid tier: 50 rps offered for 10 s accepts 20 + 10×10 = 120', () => {
    const c = fakeClock();
    const b = new TokenBuckets(c.now);
    let accepted = 0;
    for (let i = 0; i <= 500; i++) {
      if (b.take(7, { rps: 10, burst: 20 }).allowed) accepted++;
      c.advance(20);
    }
    expect(accepted).toBe(120);
  });

  it('a lower override clamps the tokens on the next call', () => {
    const c = fakeClock();
    const b = new TokenBuckets(c.now);
    b.take(1, { rps: 100, burst: 100 });
    expect(b.take(1, { rps: 1, burst: 1 }).allowed).toBe(true);
    expect(b.take(1, { rps: 1, burst: 1 }).allowed).toBe(false);
  });

  it('accounts are independent', () => {
    const b = new TokenBuckets(fakeClock().now);
    for (let i = 0; i < 5; i++) b.take(1, { rps: 2, burst: 5 });
    expect(b.take(1, { rps: 2, burst: 5 }).allowed).toBe(false);
    expect(b.take(2, { rps: 2, burst: 5 }).allowed).toBe(true);
  });

  it('property: accepted in any interval ≤ burst + rps × length; Retry-After is an integer ≥ 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 30 }),
        (gaps, rps, burst) => {
          const c = fakeClock();
          const b = new TokenBuckets(c.now);
          const acceptedAt: number[] = [];
          for (const g of gaps) {
            c.advance(g);
            const r = b.take(1, { rps, burst });
            if (r.allowed) acceptedAt.push(c.now());
            else expect(Number.isInteger(r.retryAfterSeconds) && r.retryAfterSeconds >= 1).toBe(true);
          }
          for (let i = 0; i < acceptedAt.length; i++) {
            for (let j = i; j < acceptedAt.length; j++) {
              const span = (acceptedAt[j]! - acceptedAt[i]!) / 1000;
              expect(j - i + 1).toBeLessThanOrEqual(burst + rps * span + 1e-9);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
