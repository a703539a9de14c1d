import type { CarrierInfo, Shipment } from '../contract/v1';
import type { RatingResult } from '../rating/aggregator';
import type { LowBalanceEvent, Store } from '../store/port';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import type { KeyCache } from './key-cache';

/** What the /v1 listener needs from the service; assembled by core/service.ts. */
export interface ApiRuntime {
  /** Keys, balances, the money path (reserve, claimIdempotency, charge, takeToken) and the change feed. */
  store: Store;
  keyCache: KeyCache;
  clock: Clock;
  logger: Logger;
  /**
   * How many rates calls one account may have in flight at once (rating.max_in_flight_per_account): the
   * carriers' connections and quotas are the install's, and one account's hung requests must not hold them all.
   */
  maxInFlightPerAccount(): number;
  /** How long an idempotency claim holds before another request may take the key over (a dead holder's). */
  idempotencyLeaseMs: number;
  isSandbox(): boolean;
  /** Rates `shipment` for `account` (its breakers, its fair share, its cache); `signal` ends it early. */
  quote(shipment: Shipment, account: string, signal: AbortSignal): Promise<RatingResult>;
  carriers(): Promise<CarrierInfo[]>;
  openApiJson(): string;
  onLowBalance(event: LowBalanceEvent): void;
  onBalanceChanged(accountId: number, balance: number): void;
}
