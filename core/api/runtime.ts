import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PointsQuery, PointsResponse } from '../contract/points';
import type { QuoteShipment } from '../contract/quote-ext';
import type { CarrierInfo, Shipment } from '../contract/v1';
import type { QuoteResult } from '../quote/finish';
import type { LowBalanceEvent, Store } from '../store/port';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/logger';
import type { KeyCache } from './key-cache';
import type { HeaderList } from './respond';

/**
 * A documented extension beside /v1 on the same listener (the desk gateway, /desk/v1/…, #20): it gets the
 * requests under its prefix after the listener's own guards (Host, proxy, Origin) and answers them itself.
 * /v1 never reaches it. Declared here so that api/ does not import the layer that implements it.
 */
export interface ApiExtension {
  /** The path prefix it owns, e.g. `/desk/`. */
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse, request: ExtensionRequest): Promise<void>;
}

export interface ExtensionRequest {
  requestId: string;
  /** The listener's base headers (request id, no-store, nosniff), to be completed by the answer. */
  headers: HeaderList;
  /** The path as sent, without the query. */
  path: string;
  query: string | null;
}

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
  /** How long an Idempotency-Key's claim holds against other requests (IDEMPOTENCY_LEASE_MS but in tests). */
  idempotencyLeaseMs: number;
  isSandbox(): boolean;
  /**
   * Rates `shipment` for `account` (its breakers, its fair share, its cache, its resale rules); `signal` ends
   * it early. /v1 and /ext/v1 take the same path; /v1 sends only the spec's fields of each rate.
   */
  quote(shipment: Shipment | QuoteShipment, account: string, signal: AbortSignal): Promise<QuoteResult>;
  /** Pickup points that take the parcel (POST /ext/v1/points, #21), from the carrier's cached directory. */
  points(query: PointsQuery, signal: AbortSignal): Promise<PointsResponse>;
  carriers(): Promise<CarrierInfo[]>;
  openApiJson(): string;
  onLowBalance(event: LowBalanceEvent): void;
  onBalanceChanged(accountId: number, balance: number): void;
  /** Set only when the host asked for it (`serve` with the desk gateway); absent, nothing but /v1 routes. */
  extension?: ApiExtension;
}
