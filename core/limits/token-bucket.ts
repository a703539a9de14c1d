// One token bucket per account, refilled lazily on a monotonic clock (a wall-clock jump must neither
// grant a burst nor lock an account out).

export interface BucketLimits {
  /** Tokens added per second. */
  rps: number;
  /** Capacity. */
  burst: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Whole tokens left after this request (for the RateLimit header). */
  remaining: number;
  /** Integer seconds until a token is available again (≥ 1 when refused). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again (RateLimit `t`). */
  resetSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
  limits: BucketLimits;
}

export class TokenBuckets {
  private readonly buckets = new Map<number | string, Bucket>();

  constructor(private readonly nowMs: () => number = () => performance.now()) {}

  /**
   * Takes one token from the account's bucket. The limits are passed on every call because they are read
   * from the database on every request: an admin override applies to the very next request. A smaller
   * capacity clamps the tokens at once.
   */
  take(bucket: number | string, limits: BucketLimits, nowMs?: number): TakeResult {
    const now = nowMs ?? this.nowMs();
    let b = this.buckets.get(bucket);
    if (!b) {
      b = { tokens: limits.burst, updatedMs: now, limits };
      this.buckets.set(bucket, b);
    }
    const elapsed = Math.max(0, now - b.updatedMs) / 1000;
    // Float drift is snapped away once, here, so that the decision and every header agree: 5 × 0.2 s at
    // 1 token/s must add up to a whole token, and then the header must say so too (the ledger model found
    // `r=0` sent with a token that the next request was granted).
    b.tokens = snap(Math.min(limits.burst, b.tokens + elapsed * limits.rps));
    b.updatedMs = now;
    b.limits = limits;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return takeResult(allowed, b.tokens, limits);
  }
}

/**
 * What a take says, from whether it was granted and the tokens left after it (a bucket kept elsewhere, such as
 * a shared database's, answers with the same headers).
 */
export function takeResult(allowed: boolean, tokensAfter: number, limits: BucketLimits): TakeResult {
  const tokens = snap(tokensAfter);
  const resetSeconds = ceilSnapped((limits.burst - tokens) / limits.rps);
  return allowed
    ? { allowed, remaining: Math.floor(tokens), retryAfterSeconds: 0, resetSeconds }
    : {
        allowed,
        remaining: 0,
        retryAfterSeconds: Math.max(1, ceilSnapped((1 - tokens) / limits.rps)),
        resetSeconds,
      };
}

const DRIFT = 1e-9;

/** A value within float drift of a whole number is that number. */
function snap(x: number): number {
  const whole = Math.round(x);
  return Math.abs(x - whole) < DRIFT ? whole : x;
}

function ceilSnapped(x: number): number {
  return Math.ceil(snap(x));
}
