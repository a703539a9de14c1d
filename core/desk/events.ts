// Service events → desk events. Balance changes from /v1 charges and from desk top-ups both arrive as the
// service's 'balance-changed', so the UI has one source of truth whichever side spent or added requests.
import type { LowBalanceEvent } from '../billing/charge';
import type { CarrierHealth } from '../rating/health';
import type { BalanceChanged, RatingService } from '../service';
import type { DeskHost } from './context';

export function attachDeskEvents(service: RatingService, emit: DeskHost['emit']): () => void {
  const onBalance = ({ accountId, balance }: BalanceChanged): void => {
    const account = service.store.accounts.byId(accountId);
    emit('balance:changed', { account_id: accountId, account: account?.name ?? '', balance });
  };
  const onLow = (e: LowBalanceEvent): void => {
    emit('balance:low', { account: e.accountName, threshold: e.threshold, balance: e.balance, at: e.at });
  };
  const onCarrier = (h: CarrierHealth): void => {
    emit('carriers:status', { code: h.code, status: h.status, last_error: h.lastError });
  };
  service.events.on('balance-changed', onBalance);
  service.events.on('low-balance', onLow);
  service.events.on('carrier-status', onCarrier);
  return () => {
    service.events.off('balance-changed', onBalance);
    service.events.off('low-balance', onLow);
    service.events.off('carrier-status', onCarrier);
  };
}
