import type { AccountRow } from '../store/accounts';

/**
 * The balance at or below which the low-balance notification fires, or null when off.
 * `auto` is 10% of the last purchased package (rounded up); before any purchase it is off.
 */
export function thresholdRequests(account: Pick<AccountRow, 'threshold' | 'last_package'>): number | null {
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
