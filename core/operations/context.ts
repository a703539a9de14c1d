// What an operation gets to work with. Store operations need only the data file and a clock, so the admin
// CLI runs them on a store it opens for one command; service operations also need the running service
// (carriers, listener, live settings) and run only inside a host that started one (the desk).
import type { EventEmitter } from 'node:events';
import type { CarrierCode } from '../carriers/types';
import type {
  ActorKind,
  CarrierCheckReport,
  CompanyStatus,
  DeskRole,
  CarrierEndpoint,
  DeskEventName,
  DeskEventPayload,
  OperationParsedInput,
  ServerCertificate,
} from '../contract/operations';
import type { Shipment } from '../contract/v1';
import type { PointsQuery, PointsResponse } from '../contract/points';
import type { QuoteRate, QuoteShipment } from '../contract/quote-ext';
import type { QuoteResult } from '../quote/finish';
import type { QuoteProgress } from '../rating/aggregator';
import type { HealthBoard } from '../rating/health';
import type { ServiceEvents } from '../service-events';
import type { SettingsView } from '../settings/view';
import { CHUNK_YIELD_MS, type Store } from '../store/port';

import type { WallClock } from '../util/clock';

export type { WallClock };
export const systemWallClock: WallClock = { now: () => new Date() };

/**
 * Who runs an operation (#20): a desk user signed in to a company server (their role decides what they may
 * run), this computer's desk, or the admin CLI (named by the OS user). History and the audit log name them.
 */
export interface Actor {
  kind: ActorKind;
  name: string;
  /** A company desk's user's role; absent for this computer's desk and the CLI, which may run everything. */
  role?: DeskRole;
  /** The enrolled device a company desk's call came from. */
  deviceId?: string;
}

export interface StoreContext {
  store: Store;
  clock: WallClock;
  /** Absent: this computer's desk. */
  actor?: Actor;
}

/**
 * The bound /v1 listener, as operations see it (the listener itself is core/api/server.ts's `ApiListener`;
 * operations name only what they read, so they do not import the /v1 listener's modules).
 */
export interface RunningListener {
  url: string;
  port: number;
}

/**
 * The desk's link to a company server (#20), answered by the desk host (company:* operations). Only a desk
 * has one; a company server's service and the admin CLI do not, and the operations refuse there.
 */
export interface CompanyLink {
  status(): Promise<CompanyStatus>;
  /** First contact: the certificate the server shows, for the clerk to compare and pin. */
  probe(url: string): Promise<ServerCertificate>;
  join(input: OperationParsedInput<'company:join'>): Promise<CompanyStatus>;
  leave(): Promise<CompanyStatus>;
}

/** The running service, as the operations that need it see it. */
export interface ServiceParts {
  settings: SettingsView;
  health: HealthBoard;
  events: EventEmitter<ServiceEvents>;
  listener(): RunningListener | null;
  /** Stops and starts the listener with the current settings. */
  restartListener(): Promise<RunningListener | null>;
  sandbox(): boolean;
  /** `probeNow`: carriers the desk's breaker lets through now, once, as its probe («спросить сейчас»). */
  rate(
    shipment: Shipment | QuoteShipment,
    onProgress?: (p: QuoteProgress<QuoteRate>) => void,
    probeNow?: readonly string[],
  ): Promise<QuoteResult>;
  /** Pickup points that take the parcel (#21), from the carrier's cached directory. */
  points(query: PointsQuery, signal?: AbortSignal): Promise<PointsResponse>;
  /** The live check of one carrier (core/platform/carrier-check.ts) with this service's settings. */
  checkCarrier(
    code: CarrierCode,
    options: { endpoint?: CarrierEndpoint; stepTimeoutMs?: number },
  ): Promise<CarrierCheckReport>;
  /** The desk's company link; absent on a company server and wherever no desk runs. */
  company?: CompanyLink;
}

export interface ServiceContext extends StoreContext {
  service: ServiceParts;
  /** Pushes an event to the desk (quote:progress of a run). */
  emit<E extends DeskEventName>(event: E, payload: DeskEventPayload<E>): void;
  app: { version: string; dataDir: string };
}

/** True when the operation runs inside a host with a running service (the desk), not the admin CLI. */
export function inService(ctx: StoreContext): ctx is ServiceContext {
  return 'service' in ctx;
}

/**
 * What an import of keys does between its chunks. The admin CLI leaves the store free for a moment, longer
 * than a serving store's retry period, so the charges of a running `serve` get in between two chunks. Inside
 * the service's own process (the desk) nothing is waited for. (Rate-card imports chunk inside the store.)
 */
export function pauseBetweenChunks(ctx: StoreContext): { pause?: () => Promise<void> } {
  return inService(ctx)
    ? {}
    : { pause: () => new Promise<void>((resolve) => setTimeout(resolve, CHUNK_YIELD_MS)) };
}
