// What an operation gets to work with. Store operations need only the data file and a clock, so the admin
// CLI runs them on a store it opens for one command; service operations also need the running service
// (carriers, listener, live settings) and run only inside a host that started one (the desk).
import type { EventEmitter } from 'node:events';
import type { CarrierCode } from '../carriers/types';
import type {
  CarrierCheckReport,
  CarrierEndpoint,
  DeskEventName,
  DeskEventPayload,
} from '../contract/operations';
import type { Shipment } from '../contract/v1';
import type { QuoteProgress, RatingResult } from '../rating/aggregator';
import type { HealthBoard } from '../rating/health';
import type { ServiceEvents } from '../service-events';
import type { SettingsView } from '../settings/view';
import type { Store } from '../store';
import { BUSY_YIELD_MS, sleepSync } from '../store/busy';

import type { WallClock } from '../util/clock';

export type { WallClock };
export const systemWallClock: WallClock = { now: () => new Date() };

export interface StoreContext {
  store: Store;
  clock: WallClock;
}

/**
 * The bound /v1 listener, as operations see it (the listener itself is core/api/server.ts's `ApiListener`;
 * operations name only what they read, so they do not import the /v1 listener's modules).
 */
export interface RunningListener {
  url: string;
  port: number;
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
    shipment: Shipment,
    onProgress?: (p: QuoteProgress) => void,
    probeNow?: readonly string[],
  ): Promise<RatingResult>;
  /** The live check of one carrier (core/platform/carrier-check.ts) with this service's settings. */
  checkCarrier(
    code: CarrierCode,
    options: { endpoint?: CarrierEndpoint; stepTimeoutMs?: number },
  ): Promise<CarrierCheckReport>;
}

export interface ServiceContext extends StoreContext {
  service: ServiceParts;
  /** Runs a write in the service's group commit (settles after the COMMIT). */
  commit<T>(fn: () => T): Promise<T>;
  /** Pushes an event to the desk (quote:progress of a run). */
  emit<E extends DeskEventName>(event: E, payload: DeskEventPayload<E>): void;
  app: { version: string; dataDir: string };
}

/** True when the operation runs inside a host with a running service (the desk), not the admin CLI. */
export function inService(ctx: StoreContext): ctx is ServiceContext {
  return 'service' in ctx;
}

/**
 * What a long write (an import in chunks) does between its transactions. The admin CLI leaves the write lock
 * free for a moment, longer than a serving process's retry period (core/store/busy.ts), so the charges of a
 * running `serve` get in between two chunks. Inside the service's own process (the desk) the listener shares
 * the connection and cannot run meanwhile anyway, so nothing is waited for.
 */
export function pauseBetweenChunks(ctx: StoreContext): { pause?: () => void } {
  return inService(ctx) ? {} : { pause: () => sleepSync(BUSY_YIELD_MS) };
}
