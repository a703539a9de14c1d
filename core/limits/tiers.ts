// Request-rate limits per tier (spec §8) and the admin override that replaces them. Shared by the /v1
// listener (which bucket to apply) and the admin operations (what to show), so the two cannot disagree.
import type { Tier } from '../store/accounts';

export interface RateLimits {
  /** Tokens added per second. */
  rps: number;
  /** Bucket capacity. */
  burst: number;
}

export const TIER_LIMITS = {
  free: { rps: 2, burst: 5 },
  paid: { rps: 10, burst: 20 },
} as const satisfies Record<Tier, RateLimits>;

export interface EffectiveLimits extends RateLimits {
  source: 'tier' | 'override';
}

/** Any row carrying a tier and the optional override columns: AccountRow and KeyAuthRow both do. */
export interface LimitsSource {
  tier: Tier;
  override_rps: number | null;
  override_burst: number | null;
}

/** The override wins only when both of its columns are present (the table has both NOT NULL). */
export function effectiveLimits(row: LimitsSource): EffectiveLimits {
  if (row.override_rps !== null && row.override_burst !== null) {
    return { rps: row.override_rps, burst: row.override_burst, source: 'override' };
  }
  const tier = TIER_LIMITS[row.tier];
  return { rps: tier.rps, burst: tier.burst, source: 'tier' };
}
