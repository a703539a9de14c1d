/** Time as the core sees it: injected so tests can move it (idempotency expiry) without sleeping. */
export interface Clock {
  /** Wall clock, for timestamps stored and shown. */
  now(): Date;
  /** Monotonic milliseconds, for rate limits and deadlines. */
  monotonicMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};
