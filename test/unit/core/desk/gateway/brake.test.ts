import { describe, expect, it } from 'vitest';
import { ENROL_BRAKE, FailureBrake } from '../../../../../core/desk/gateway/brake';

describe('the enrolment brake', () => {
  it('lets 10 failures a minute through per address, then says how long to wait', () => {
    let now = 1_000_000;
    const brake = new FailureBrake(ENROL_BRAKE, () => now);
    for (let i = 0; i < 10; i++) {
      expect(brake.retryAfterSeconds('10.0.0.1')).toBe(0);
      brake.fail('10.0.0.1');
      now += 1_000;
    }
    // The first failure was 10 s ago: it leaves the window in 50 s.
    expect(brake.retryAfterSeconds('10.0.0.1')).toBe(50);
    // Another address is not held.
    expect(brake.retryAfterSeconds('10.0.0.2')).toBe(0);
    now += 50_000;
    expect(brake.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('forgets the oldest address first beyond its bound', () => {
    const brake = new FailureBrake({ limit: 1, windowMs: 60_000 }, () => 0);
    for (let i = 0; i <= 10_000; i++) brake.fail(`a${i}`);
    expect(brake.retryAfterSeconds('a0')).toBe(0);
    expect(brake.retryAfterSeconds('a10000')).toBeGreaterThan(0);
  });
});
