// The brake on enrolment failures per client address: after `limit` failed codes within a window the address
// gets 429 with Retry-After BEFORE its next code is tried, so guessing codes (60 bits, 15 minutes) is slowed
// to `limit` a minute on top of being hopeless. Per instance: N instances behind one name multiply the limit
// by N, which changes nothing about the odds. Behind a reverse proxy every client shares the proxy's address,
// so a burst of typos somewhere in the company can hold enrolment for a minute; that is the safe side.

export interface BrakeLimits {
  /** Failures allowed within the window. */
  limit: number;
  windowMs: number;
}

export const ENROL_BRAKE: BrakeLimits = { limit: 10, windowMs: 60_000 };
/** Addresses remembered at once; the oldest is forgotten first (a flood of addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

export class FailureBrake {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: BrakeLimits,
    private readonly nowMs: () => number,
  ) {}

  /** Seconds to wait before `address` may try again; 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.limits.limit) return 0;
    const freeAt = recent[recent.length - this.limits.limit]! + this.limits.windowMs;
    return Math.max(1, Math.ceil((freeAt - this.nowMs()) / 1000));
  }

  fail(address: string): void {
    const recent = this.recent(address);
    recent.push(this.nowMs());
    this.failures.delete(address);
    this.failures.set(address, recent);
    if (this.failures.size > MAX_ADDRESSES) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  private recent(address: string): number[] {
    const since = this.nowMs() - this.limits.windowMs;
    const kept = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.failures.delete(address);
    else this.failures.set(address, kept);
    return kept;
  }
}
