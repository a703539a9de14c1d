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

/** Only the wall clock: what stamps rows and never measures durations (operations, the data folder). */
export type WallClock = Pick<Clock, 'now'>;
