// Account operations: balances, tiers, rate-limit overrides, low-balance thresholds.
import { z } from 'zod';
import { effectiveLimits, type EffectiveLimits } from '../limits/tiers';
import type { Store } from '../store';
import type { AccountRow, Threshold, Tier } from '../store/accounts';
import { parseInput, requireAccount, type WallClock } from './common';
import { AdminError } from './errors';

/** Upper bound of one balance change: far above any real package, far below SQLite's 2^63. */
export const MAX_REQUESTS = 1_000_000_000;

/** Names appear in shell commands and file names: keep them to characters that need no quoting. */
export const AccountName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 characters from A-Z, a-z, 0-9, "_", "." and "-"');

/** Looking an account up: any non-empty text; a name that cannot exist simply is not found. */
export const AccountRef = z.string().min(1, 'account name is required').max(200);

export const ThresholdValue = z.enum(['100', '500', '1000', 'auto', 'off']);

export const ListAccountsInput = z.strictObject({}).optional();
export const CreateAccountInput = z.strictObject({
  name: AccountName,
  balance: z.number().int('must be a whole number').min(0).max(MAX_REQUESTS).default(100),
});
export const TopupInput = z.strictObject({
  account: AccountRef,
  requests: z.number().int('must be a whole number').min(1).max(MAX_REQUESTS),
});
export const SetLimitsInput = z.strictObject({
  account: AccountRef,
  rps: z.number().gt(0).max(10_000),
  burst: z.number().int('must be a whole number').min(1).max(100_000),
});
export const ClearLimitsInput = z.strictObject({ account: AccountRef });
export const SetThresholdInput = z.strictObject({ account: AccountRef, threshold: ThresholdValue });

export interface AccountView {
  id: number;
  name: string;
  tier: Tier;
  balance: number;
  limits: EffectiveLimits;
  threshold: Threshold;
  last_package: number | null;
  created_at: string;
}

function view(row: AccountRow): AccountView {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    balance: row.balance,
    limits: effectiveLimits(row),
    threshold: row.threshold,
    last_package: row.last_package,
    created_at: row.created_at,
  };
}

export function listAccounts(
  store: Store,
  _clock: WallClock,
  input?: z.input<typeof ListAccountsInput>,
): AccountView[] {
  parseInput(ListAccountsInput, input);
  return store.accounts.list().map(view);
}

export function createAccount(
  store: Store,
  clock: WallClock,
  input: z.input<typeof CreateAccountInput>,
): AccountView {
  const { name, balance } = parseInput(CreateAccountInput, input);
  return store.tx(() => {
    if (store.accounts.byName(name))
      throw new AdminError('conflict', `Account ${JSON.stringify(name)} already exists.`);
    return view(store.accounts.create(name, balance, clock.now().toISOString()));
  });
}

/** Records a purchased package: the account becomes paid and "auto" thresholds follow this package size. */
export function topup(store: Store, clock: WallClock, input: z.input<typeof TopupInput>): AccountView {
  const { account, requests } = parseInput(TopupInput, input);
  return store.tx(() => {
    const row = requireAccount(store, account);
    store.accounts.topup(row.id, requests, clock.now().toISOString(), 'admin top-up');
    return view(store.accounts.byId(row.id)!);
  });
}

export function setLimits(
  store: Store,
  clock: WallClock,
  input: z.input<typeof SetLimitsInput>,
): AccountView {
  const { account, rps, burst } = parseInput(SetLimitsInput, input);
  return store.tx(() => {
    const row = requireAccount(store, account);
    store.accounts.setLimits(row.id, rps, burst, clock.now().toISOString());
    return view(store.accounts.byId(row.id)!);
  });
}

/** Back to the tier's limits. Clearing an account without an override is not an error: the end state is the same. */
export function clearLimits(
  store: Store,
  _clock: WallClock,
  input: z.input<typeof ClearLimitsInput>,
): AccountView {
  const { account } = parseInput(ClearLimitsInput, input);
  return store.tx(() => {
    const row = requireAccount(store, account);
    store.accounts.clearLimits(row.id);
    return view(store.accounts.byId(row.id)!);
  });
}

export function setThreshold(
  store: Store,
  _clock: WallClock,
  input: z.input<typeof SetThresholdInput>,
): AccountView {
  const { account, threshold } = parseInput(SetThresholdInput, input);
  return store.tx(() => {
    const row = requireAccount(store, account);
    store.accounts.setThreshold(row.id, threshold);
    return view(store.accounts.byId(row.id)!);
  });
}
