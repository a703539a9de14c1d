// Accounts: balances, tiers, rate-limit overrides, low-balance thresholds; and the notification log.
import { effectiveLimits } from '../contract/limits';
import type { AccountView } from '../contract/operations';
import type { Store } from '../store';
import type { AccountRow } from '../store/accounts';
import { inService } from './context';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';

export function requireAccount(store: Store, name: string): AccountRow {
  const row = store.accounts.byName(name);
  if (!row)
    throw new OperationError('not_found', `No account named ${JSON.stringify(name)}. See "accounts list".`);
  return row;
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
  'accounts:list': { needs: 'store', run: ({ store }) => store.accounts.list().map(accountView) },

  'accounts:create': {
    needs: 'store',
    run: ({ store, clock }, { name, balance }) =>
      store.tx(() => {
        if (store.accounts.byName(name))
          throw new OperationError('conflict', `Account ${JSON.stringify(name)} already exists.`);
        return accountView(store.accounts.create(name, balance, clock.now().toISOString()));
      }),
  },

  'accounts:topup': {
    needs: 'store',
    run: (ctx, { account, requests }) => {
      const { store, clock } = ctx;
      const view = store.tx(() => {
        const row = requireAccount(store, account);
        store.accounts.topup(row.id, requests, clock.now().toISOString(), 'admin top-up');
        return accountView(store.accounts.byId(row.id)!);
      });
      // Through the service's emitter, like /v1 charges, so every window hears it as 'balance:changed'.
      if (inService(ctx))
        ctx.service.events.emit('balance-changed', { accountId: view.id, balance: view.balance });
      return view;
    },
  },

  'accounts:set-limits': {
    needs: 'store',
    run: ({ store, clock }, { account, rps, burst }) =>
      store.tx(() => {
        const row = requireAccount(store, account);
        store.accounts.setLimits(row.id, rps, burst, clock.now().toISOString());
        return accountView(store.accounts.byId(row.id)!);
      }),
  },

  'accounts:clear-limits': {
    needs: 'store',
    run: ({ store }, { account }) =>
      store.tx(() => {
        const row = requireAccount(store, account);
        store.accounts.clearLimits(row.id);
        return accountView(store.accounts.byId(row.id)!);
      }),
  },

  'accounts:set-threshold': {
    needs: 'store',
    run: ({ store }, { account, threshold }) =>
      store.tx(() => {
        const row = requireAccount(store, account);
        store.accounts.setThreshold(row.id, threshold);
        return accountView(store.accounts.byId(row.id)!);
      }),
  },

  'notifications:list': {
    needs: 'store',
    run: ({ store }, input) =>
      store.notifications.list(input?.limit ?? 50).map((n) => ({
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
