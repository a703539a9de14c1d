// The low-balance rule (spec §6): thresholds an account may choose, when a notice fires, and what a new
// account starts with. Shared by the charge (core/billing), the operations and the balance screen.

export const THRESHOLD_VALUES = ['100', '500', '1000', 'auto', 'off'] as const;
export type Threshold = (typeof THRESHOLD_VALUES)[number];

/**
 * New accounts start on `auto` (10 % of the last purchased package, off before the first purchase): with the
 * spec's fixed 100 a fresh account, which starts with 100 requests, would be "low" on day one (docs/api.md).
 */
export const DEFAULT_THRESHOLD: Threshold = 'auto';
/** Requests a new account starts with when none are given. */
export const DEFAULT_BALANCE = 100;

/**
 * The balance at or below which the low-balance notification fires, or null when it never will (off, or
 * auto before the first purchase). Auto is 10 % of the last package, rounded up.
 */
export function thresholdRequests(account: {
  threshold: Threshold;
  last_package: number | null;
}): number | null {
  switch (account.threshold) {
    case 'off':
      return null;
    case 'auto':
      return account.last_package ? Math.ceil(account.last_package / 10) : null;
    default:
      return Number(account.threshold);
  }
}

/** Fires once per descent: only the deduction that moves the balance from above to at-or-below. */
export function crossesThreshold(before: number, after: number, threshold: number | null): boolean {
  return threshold !== null && before > threshold && after <= threshold;
}

/** True when the balance is at or below an active threshold. */
export function isLow(account: {
  threshold: Threshold;
  last_package: number | null;
  balance: number;
}): boolean {
  const limit = thresholdRequests(account);
  return limit !== null && account.balance <= limit;
}
