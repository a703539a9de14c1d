// Accounts: balances, tiers, rate-limit overrides, low-balance thresholds; and the notification log.
import { z } from 'zod';
import { MAX_BURST, MAX_REQUESTS, MAX_RPS } from '../limits';
import { DEFAULT_BALANCE, THRESHOLD_VALUES } from '../low-balance';
import { Id, NoInput, Timestamp } from './common';

/** Names appear in shell commands and file names: keep them to characters that need no quoting. */
export const AccountName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_", "." and "-"');
/** Looking an account up: any non-empty text; a name that cannot exist simply is not found. */
export const AccountRef = z.string().min(1, 'account name is required').max(200);
export const Requests = z.int('must be a whole number').min(1).max(MAX_REQUESTS);
export const ThresholdValue = z.enum(THRESHOLD_VALUES);
export const Tier = z.enum(['free', 'paid']);

export const AccountView = z.object({
  id: Id,
  name: z.string(),
  tier: Tier,
  balance: z.number(),
  limits: z.object({ rps: z.number(), burst: z.number(), source: z.enum(['tier', 'override']) }),
  threshold: ThresholdValue,
  last_package: z.number().nullable(),
  created_at: Timestamp,
});
export type AccountView = z.output<typeof AccountView>;

export const NotificationView = z.object({
  id: Id,
  account: z.string(),
  kind: z.literal('low_balance'),
  threshold: z.number(),
  /** Balance at the moment the threshold was crossed. */
  balance: z.number(),
  created_at: Timestamp,
});
export type NotificationView = z.output<typeof NotificationView>;

export const accountOperations = {
  'accounts:list': { input: NoInput, output: z.array(AccountView) },
  'accounts:create': {
    input: z.strictObject({
      name: AccountName,
      balance: z.int('must be a whole number').min(0).max(MAX_REQUESTS).default(DEFAULT_BALANCE),
    }),
    output: AccountView,
  },
  /** A purchased package: the account becomes paid and "auto" thresholds follow this package size. */
  'accounts:topup': {
    input: z.strictObject({ account: AccountRef, requests: Requests }),
    output: AccountView,
  },
  'accounts:set-limits': {
    input: z.strictObject({
      account: AccountRef,
      rps: z.number().gt(0).max(MAX_RPS),
      burst: z.int('must be a whole number').min(1).max(MAX_BURST),
    }),
    output: AccountView,
  },
  /** Back to the tier's limits; clearing an account without an override is not an error. */
  'accounts:clear-limits': { input: z.strictObject({ account: AccountRef }), output: AccountView },
  'accounts:set-threshold': {
    input: z.strictObject({ account: AccountRef, threshold: ThresholdValue }),
    output: AccountView,
  },
  'notifications:list': {
    input: z.strictObject({ limit: z.int('must be a whole number').min(1).max(1000).default(50) }).optional(),
    output: z.array(NotificationView),
  },
} as const;
