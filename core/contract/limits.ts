// Request-rate limits per tier (spec §8), the admin override that replaces them, and the bounds of what an
// administrator may set. One module for the /v1 listener (which bucket applies), the operations (what to
// show and accept) and the renderer (what the form allows), so none of them can disagree.

export type Tier = 'free' | 'paid';

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

/** Upper bound of one balance change: far above any real package, far below SQLite's 2^63. */
export const MAX_REQUESTS = 1_000_000_000;
/** Bounds of an admin override. */
export const MAX_RPS = 10_000;
export const MAX_BURST = 100_000;

export interface EffectiveLimits extends RateLimits {
  source: 'tier' | 'override';
}

/** Any row carrying a tier and the optional override columns: accounts and key lookups both do. */
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
