// Balance and accounts screen: core/admin's operations as they are, plus the balance event for top-ups.
import {
  clearLimits,
  createAccount,
  listAccounts,
  listNotifications,
  setLimits,
  setThreshold,
  topup,
} from '../../admin';
import type { DeskContext, HandlersOf } from '../context';

type AccountChannels =
  | 'accounts:list'
  | 'accounts:create'
  | 'accounts:topup'
  | 'accounts:set-limits'
  | 'accounts:clear-limits'
  | 'accounts:set-threshold'
  | 'notifications:list';

export function accountHandlers(ctx: DeskContext): HandlersOf<AccountChannels> {
  const { store } = ctx.service;
  return {
    'accounts:list': async () => listAccounts(store, ctx.clock),
    'accounts:create': async (input) => createAccount(store, ctx.clock, input),
    'accounts:topup': async (input) => {
      const account = topup(store, ctx.clock, input);
      // Through the service's emitter, like /v1 charges: attachDeskEvents turns it into 'balance:changed'
      // for every window, and any other listener of the service hears it too.
      ctx.service.events.emit('balance-changed', { accountId: account.id, balance: account.balance });
      return account;
    },
    'accounts:set-limits': async (input) => setLimits(store, ctx.clock, input),
    'accounts:clear-limits': async (input) => clearLimits(store, ctx.clock, input),
    'accounts:set-threshold': async (input) => setThreshold(store, ctx.clock, input),
    'notifications:list': async (input) => listNotifications(store, ctx.clock, input),
  };
}
