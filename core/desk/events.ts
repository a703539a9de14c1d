// Service events → desk events. Balance changes from /v1 charges and from desk top-ups both arrive as the
// service's 'balance-changed', so the UI has one source of truth whichever side spent or added requests.
import type { EventEmitter } from 'node:events';
import type { DeskEventName, DeskEventPayload } from '../contract/operations';
import type { CarrierHealth } from '../rating/health';
import type { BalanceChanged, ServiceEvents } from '../service-events';
import type { LowBalanceEvent, Store } from '../store/port';

export type DeskEmit = <E extends DeskEventName>(event: E, payload: DeskEventPayload<E>) => void;

export function attachDeskEvents(
  events: EventEmitter<ServiceEvents>,
  store: Store,
  emit: DeskEmit,
): () => void {
  // Accounts are never renamed: a name looked up once is kept, so every later balance is told at once, in the
  // order the balances changed (a lookup per event could settle out of order behind a busy file).
  const names = new Map<number, string>();
  const onBalance = ({ accountId, balance }: BalanceChanged): void => {
    const name = names.get(accountId);
    if (name !== undefined) {
      emit('balance:changed', { account_id: accountId, account: name, balance });
      return;
    }
    void store.accounts.byId(accountId).then(
      (account) => {
        if (account) names.set(accountId, account.name);
        emit('balance:changed', { account_id: accountId, account: account?.name ?? '', balance });
      },
      () => emit('balance:changed', { account_id: accountId, account: '', balance }),
    );
  };
  const onLow = (e: LowBalanceEvent): void => {
    emit('balance:low', { account: e.accountName, threshold: e.threshold, balance: e.balance, at: e.at });
  };
  const onCarrier = (h: CarrierHealth): void => {
    emit('carriers:status', { code: h.code, status: h.status, last_error: h.lastError });
  };
  events.on('balance-changed', onBalance);
  events.on('low-balance', onLow);
  events.on('carrier-status', onCarrier);
  return () => {
    events.off('balance-changed', onBalance);
    events.off('low-balance', onLow);
    events.off('carrier-status', onCarrier);
  };
}
