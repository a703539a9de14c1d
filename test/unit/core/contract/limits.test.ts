import { describe, expect, it } from 'vitest';
import { TIER_LIMITS, effectiveLimits } from '../../../../core/contract/limits';

describe('effectiveLimits', () => {
  it('uses the spec limits of each tier', () => {
    expect(TIER_LIMITS).toEqual({ free: { rps: 2, burst: 5 }, paid: { rps: 10, burst: 20 } });
    expect(effectiveLimits({ tier: 'free', override_rps: null, override_burst: null })).toEqual({
      rps: 2,
      burst: 5,
      source: 'tier',
    });
    expect(effectiveLimits({ tier: 'paid', override_rps: null, override_burst: null })).toEqual({
      rps: 10,
      burst: 20,
      source: 'tier',
    });
  });

  it('lets an admin override win over the tier', () => {
    expect(effectiveLimits({ tier: 'paid', override_rps: 0.5, override_burst: 1 })).toEqual({
      rps: 0.5,
      burst: 1,
      source: 'override',
    });
  });
});
