import type { CarrierInfo, Shipment } from '../contract/v1';
import type { LowBalanceEvent } from '../billing/charge';
import type { TokenBuckets } from '../limits/token-bucket';
import type { RatingResult } from '../rating/aggregator';
import type { Store } from '../store';
import type { GroupCommitter } from '../store/commit-queue';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import type { InFlight } from './idempotency';
import type { KeyCache } from './key-cache';

/** What the /v1 listener needs from the service; assembled by core/service.ts. */
export interface ApiRuntime {
  store: Store;
  keyCache: KeyCache;
  committer: GroupCommitter;
  clock: Clock;
  logger: Logger;
  buckets: TokenBuckets;
  /** One shared bucket for failed authentications, so key guessing costs time and no account's quota. */
  authFailures: TokenBuckets;
  inFlight: InFlight;
  /** Requests being rated per account, not yet charged: the balance they will need is held back. */
  reservations: Map<number, number>;
  /**
   * How many rates calls one account may have in flight at once (rating.max_in_flight_per_account): the
   * carriers' connections and quotas are the install's, and one account's hung requests must not hold them all.
   */
  maxInFlightPerAccount(): number;
  isSandbox(): boolean;
  /** Rates `shipment` for `account` (its breakers, its fair share, its cache); `signal` ends it early. */
  quote(shipment: Shipment, account: string, signal: AbortSignal): Promise<RatingResult>;
  carriers(): CarrierInfo[];
  openApiJson(): string;
  onLowBalance(event: LowBalanceEvent): void;
  onBalanceChanged(accountId: number, balance: number): void;
}
