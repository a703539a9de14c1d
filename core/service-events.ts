// What the rating service announces to its hosts (the desk turns these into its own events).
import type { LowBalanceEvent } from './store/port';
import type { CarrierHealth } from './rating/health';

export interface BalanceChanged {
  accountId: number;
  balance: number;
}

export interface ServiceEvents {
  'low-balance': [LowBalanceEvent];
  /** After every /v1 charge; desk top-ups emit it too. */
  'balance-changed': [BalanceChanged];
  'carrier-status': [CarrierHealth];
}
