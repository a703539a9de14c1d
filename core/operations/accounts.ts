// Accounts: balances, tiers, rate-limit overrides, low-balance thresholds; and the notification log.
import { effectiveLimits } from '../contract/limits';
import type { AccountView } from '../contract/operations';
import { StoreConflictError, type AccountRow, type Store } from '../store/port';
import { inService } from './context';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';

export async function requireAccount(store: Store, name: string): Promise<AccountRow> {
  const row = await store.accounts.byName(name);
  if (!row) throw notFound(name);
  return row;
}

function notFound(name: string): OperationError {
  return new OperationError('not_found', `No account named ${JSON.stringify(name)}. See "accounts list".`);
}

/** Accounts are never deleted or renamed, so the row found by name is still there after the write. */
async function changed(name: string, write: Promise<AccountRow | undefined>): Promise<AccountView> {
  const row = await write;
  if (!row) throw notFound(name);
  return accountView(row);
}

export function accountView(row: AccountRow): AccountView {
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

type AccountOperation =
  | 'accounts:list'
  | 'accounts:create'
  | 'accounts:topup'
  | 'accounts:set-limits'
  | 'accounts:clear-limits'
  | 'accounts:set-threshold'
  | 'notifications:list';

export const accountOperations = {
  'accounts:list': {
    needs: 'store',
    run: async ({ store }) => (await store.accounts.list()).map(accountView),
  },

  'accounts:create': {
    needs: 'store',
    run: async ({ store, clock }, { name, balance }) => {
      try {
        return accountView(await store.accounts.create(name, balance, clock.now().toISOString()));
      } catch (error) {
        if (error instanceof StoreConflictError)
          throw new OperationError('conflict', `Account ${JSON.stringify(name)} already exists.`);
        throw error;
      }
    },
  },

  'accounts:topup': {
    needs: 'store',
    run: async (ctx, { account, requests }) => {
      const { store, clock } = ctx;
      const row = await requireAccount(store, account);
      const view = await changed(
        account,
        store.accounts.topup(row.id, requests, clock.now().toISOString(), 'admin top-up'),
      );
      // Through the service's emitter, like /v1 charges, so every window hears it as 'balance:changed'.
      if (inService(ctx))
        ctx.service.events.emit('balance-changed', { accountId: view.id, balance: view.balance });
      return view;
    },
  },

  'accounts:set-limits': {
    needs: 'store',
    run: async ({ store, clock }, { account, rps, burst }) => {
      const row = await requireAccount(store, account);
      return changed(account, store.accounts.setLimits(row.id, rps, burst, clock.now().toISOString()));
    },
  },

  'accounts:clear-limits': {
    needs: 'store',
    run: async ({ store }, { account }) => {
      const row = await requireAccount(store, account);
      return changed(account, store.accounts.clearLimits(row.id));
    },
  },

  'accounts:set-threshold': {
    needs: 'store',
    run: async ({ store }, { account, threshold }) => {
      const row = await requireAccount(store, account);
      return changed(account, store.accounts.setThreshold(row.id, threshold));
    },
  },

  'notifications:list': {
    needs: 'store',
    run: async ({ store }, input) =>
      (await store.notifications.list(input?.limit ?? 50)).map((n) => ({
        id: n.id,
        account: n.account_name,
        kind: n.kind,
        threshold: n.threshold,
        balance: n.balance,
        created_at: n.created_at,
      })),
  },
} satisfies AreaOperations<AccountOperation>;

// The classic (store, clock, input) call shape, for scripts and test set-ups: the same definitions.
const ops = accountOperations;
export const listAccounts = storeCall('accounts:list', ops['accounts:list']);
export const createAccount = storeCall('accounts:create', ops['accounts:create']);
export const topup = storeCall('accounts:topup', ops['accounts:topup']);
export const setLimits = storeCall('accounts:set-limits', ops['accounts:set-limits']);
export const clearLimits = storeCall('accounts:clear-limits', ops['accounts:clear-limits']);
export const setThreshold = storeCall('accounts:set-threshold', ops['accounts:set-threshold']);
export const listNotifications = storeCall('notifications:list', ops['notifications:list']);
