// The composition root: one function that every host (npm run serve, the Electron main process, tests)
// calls to get a running rating service on a data folder or a company database. Over 400 lines for now: it is
// the one place that wires every part together; the store choice (#19), secrets and the company desk's link
// and gateway (#20) are the next to move out.
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { CompanyListen } from './api/company-listen';
import { startApiListener, type ApiListener } from './api/server';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from './api/idempotency';
import { KeyCache } from './api/key-cache';
import type { ApiRuntime } from './api/runtime';
import { runCarrierCheck } from './platform/carrier-check';
import { DESK_ACCOUNT } from './rating/aggregator';
import { CarrierRegistry, type RegistryOptions } from './platform/carrier-registry';
import { WarmUp, warmUpRoute, type WarmUpPhase, type WarmUpReport } from './platform/warm-up';
import { createLocationResolver } from './locations/resolver';
import type { CarrierAdapter } from './carriers/types';
import { buildOpenApiDocument } from './contract/openapi';
import { fromV1, type QuoteRate, type QuoteShipment } from './contract/quote-ext';
import type { CarrierInfo, Shipment } from './contract/v1';
import {
  finishResult,
  finishRate,
  pricingAccount,
  type FinishContext,
  type QuoteResult,
} from './quote/finish';
import type { PricingRule } from './contract/pricing';
import { dayRulesFor } from './quote/day-rules';
import { moscowDate } from './util/moscow-date';
import { createPointSearch } from './points/search';
import type { DeskEventName, DeskEventPayload } from './contract/operations';
import { attachDeskEvents, type DeskEmit } from './desk/events';
import { DeskCompanyLink } from './desk/company-link';
import { createDeskGateway, type DeskGateway } from './desk/gateway';
import { dispatchDesk } from './desk/dispatch';
import type { DeskResult } from './desk/contract';
import { parseStoredShipment } from './operations/stored-quote';
import type { ServiceContext, ServiceParts } from './operations';
import { quoteAll, type QuoteProgress } from './rating/aggregator';
import { CircuitBreakers } from './rating/breaker';
import { RateCache } from './rating/rate-cache';
import { HealthBoard, type CarrierHealth } from './rating/health';
import type { ServiceEvents } from './service-events';
import { plainSecrets, prepareSecrets, type SecretStore } from './settings/secrets';
import { SettingsView } from './settings/view';
import type { Store } from './store/port';
import { openCompanyStore } from './store/company';
import { ensureDataFolder } from './store/data-folder';
import type { StoreOptions } from './store/sqlite';
import { refuseDamaged } from './store/startup-check';
import { systemClock, type Clock } from './util/clock';
import { lockDataFolder } from './util/folder-lock';
import { silentLogger, type Logger } from './util/logger';

export type { BalanceChanged, ServiceEvents } from './service-events';

export interface RatingServiceOptions {
  dataDir: string;
  /**
   * A company database instead of the data folder (#19): N instances share it, so nothing is locked here.
   * holdLeaseMs/reapEveryMs: how long a crashed instance's balance holds live (store/postgres/money.ts);
   * idempotencyLeaseMs: how long its idempotency claims do (api/idempotency.ts). Shortened by tests only.
   */
  database?: { url: string; holdLeaseMs?: number; reapEveryMs?: number; idempotencyLeaseMs?: number };
  clock?: Clock;
  logger?: Logger;
  /** Overrides the listener settings (CLI flags); `false` starts no listener. */
  listen?: { host?: string; port?: number; allowRemote?: boolean; company?: CompanyListen } | false;
  simulatorLatencyMs?: number;
  /** Benchmarks only: see RegistryOptions.simulatorUrls. */
  simulatorUrls?: RegistryOptions['simulatorUrls'];
  open?: Omit<StoreOptions, 'secrets' | 'groupCommit'>;
  /**
   * Benchmarks only: answer with these in-process adapters instead of the configured carriers, to measure
   * the bookkeeping without carrier HTTP. Such a service always reports sandbox mode.
   */
  adapters?: CarrierAdapter[];
  /** Tests only: see RegistryOptions.sandboxFront (the carrier chaos suite's fault proxy). */
  sandboxFront?: RegistryOptions['sandboxFront'];
  /** Benchmarks only: false commits each charge on its own instead of grouping commits. */
  groupCommit?: boolean;
  /**
   * The desktop app: a listener that cannot bind (port taken) is reported in `listenerError` instead of
   * failing the whole service; `restartListener()` (after the user picks another port) can still start it.
   */
  tolerateListenerFailure?: boolean;
  /**
   * How carrier secrets are kept at rest. The desktop passes one built on the OS keychain; `serve` and
   * `admin` one sealed with the server key when given one (settings/server-secrets.ts), else plain text in
   * the 0600 file (the default).
   */
  secrets?: SecretStore;
  /** What the desk's app:info reports as the version (the desktop's own). */
  appVersion?: string;
  /**
   * The background warm-up after start (core/platform/warm-up.ts), so that the first quote is as fast as the
   * later ones: on in every host by default. `false` starts cold (tests that count carrier calls from a cold
   * start, the benchmark's reference); a list runs only those phases (the benchmark's breakdown).
   */
  warmUp?: boolean | readonly WarmUpPhase[];
  /**
   * The desk gateway (#20, core/desk/gateway/): company desks' calls under /desk/v1/ on the same listener,
   * beside /v1. `serve` turns it on; the desktop app never serves other desks. Tests shorten the event
   * streams' keep-alive period.
   */
  deskGateway?: boolean | { keepAliveMs: number };
  /**
   * A desk that may join a company server (#20): the desktop app and its e2e harness. Its link
   * (core/desk/company-link.ts) answers company:* and resumes a stored link at start; route the window's
   * calls through core/desk/router.ts. `retry`: tests shorten the reconnect back-off.
   */
  companyDesk?: boolean | { retry: { firstMs: number; maxMs: number } };
}

/** How many latest history rows the warm-up reads for its route (warm-up-route.ts). */
const WARM_UP_HISTORY_ROWS = 20;

/** A desk subscriber: every event the desk shows (quote progress, balances, carrier status). */
export type DeskListener = <E extends DeskEventName>(event: E, payload: DeskEventPayload<E>) => void;

export type RatingService = Awaited<ReturnType<typeof createRatingService>>;

export async function createRatingService(options: RatingServiceOptions) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const { database } = options;
  const unlock = database ? () => {} : lockDataFolder(mkdirFor(options.dataDir));
  const secrets = options.secrets ?? plainSecrets;
  let store: Store;
  try {
    store = database
      ? await openCompanyStore(database.url, {
          clock,
          secrets,
          ...(database.holdLeaseMs !== undefined ? { holdLeaseMs: database.holdLeaseMs } : {}),
          ...(database.reapEveryMs !== undefined ? { reapEveryMs: database.reapEveryMs } : {}),
        })
      : ensureDataFolder(options.dataDir, {
          clock,
          open: {
            ...options.open,
            secrets,
            ...(options.groupCommit !== undefined ? { groupCommit: options.groupCommit } : {}),
          },
        }).store;
  } catch (err) {
    unlock();
    throw err;
  }
  try {
    await refuseDamaged(store);
    // The secret store's own check (a server key that is missing or wrong refuses the start) comes before
    // any secret is read or sealed.
    const sealed = await prepareSecrets(store.settings, secrets, clock.now().toISOString());
    if (sealed > 0) logger.info('sealed carrier secrets left as plain text', { count: sealed });
    // From here on a write that meets a lock held elsewhere retries off the event loop, up to a bound; only
    // the start above may wait the store's full timeout.
    store.startServing();
  } catch (err) {
    await store.close();
    unlock();
    throw err;
  }

  const events = new EventEmitter<ServiceEvents>();
  const settings = new SettingsView(store.settings);
  const health = new HealthBoard((h) => {
    // Never fails for a busy store (it is written with the next batch of writes then).
    store.carrierHealth
      .upsert({
        code: h.code,
        status: h.status,
        consecutive_failures: h.consecutiveFailures,
        last_error: h.lastError,
        last_success_at: h.lastSuccessAt,
        last_failure_at: h.lastFailureAt,
        latency_ms_median: h.medianLatencyMs,
      })
      .catch((e: unknown) => logger.warn('carrier health not saved', { code: h.code, error: String(e) }));
    events.emit('carrier-status', h);
  });
  for (const row of await store.carrierHealth.all()) {
    health.seed({
      code: row.code,
      status: row.status,
      consecutiveFailures: row.consecutive_failures,
      lastError: row.last_error,
      lastSuccessAt: row.last_success_at,
      lastFailureAt: row.last_failure_at,
      medianLatencyMs: row.latency_ms_median,
    });
  }
  // Places that expired long ago go, so the table only holds places asked about lately (best effort).
  await store.locationCache.sweepExpired(Date.now());
  const registry = new CarrierRegistry(settings, {
    ...(options.simulatorLatencyMs !== undefined ? { simulatorLatencyMs: options.simulatorLatencyMs } : {}),
    ...(options.adapters ? { adapters: options.adapters } : {}),
    ...(options.sandboxFront ? { sandboxFront: options.sandboxFront } : {}),
    ...(options.simulatorUrls ? { simulatorUrls: options.simulatorUrls } : {}),
    rateCards: store,
    environment: {
      locations: createLocationResolver({ cache: store.locationCache, logger }),
      logger,
      now: () => clock.now(),
      pickupCatalogue: store.pickupCatalogue,
      ...(store.carrierCoordination ? { coordination: store.carrierCoordination } : {}),
    },
  });
  // Built on the first GET /v1/openapi.json, not at start (~5 ms that no first request needs).
  let openApiJson: string | undefined;

  // Shared by desk quotes and /v1 (docs/carriers.md, "Circuit breaker, back-off and cache"). In-process
  // adapters (benchmarks, the ledger model) are code that cannot be down: they get the cache but no breaker,
  // so a stub's scripted failures stay exactly what it scripted.
  const breakers = options.adapters ? undefined : new CircuitBreakers(() => clock.monotonicMs());
  const rateCache = new RateCache(() => clock.monotonicMs());
  /** Set once the listener is up (below); a quote before that has nothing to stop. */
  let warmUp: WarmUp | null = null;
  async function rate(
    asked: Shipment | QuoteShipment,
    account: string,
    onProgress?: (p: QuoteProgress<QuoteRate>) => void,
    signal?: AbortSignal,
    probeNow?: readonly string[],
  ): Promise<QuoteResult> {
    const shipment: QuoteShipment = 'cod_kopecks' in asked ? asked : fromV1(asked);
    // A real quote does its own warming: what the warm-up has not done yet is left to it (warm-up.ts).
    warmUp?.quoteStarted();
    const set = await registry.carrierSet();
    const cacheTtlMs = Number(settings.get('rating.cache_ttl_ms'));
    const owner = pricingAccount(account);
    // The resale rules are read while the carriers are asked, not before: that saves one database round trip
    // ahead of every quote (about 1 ms on PostgreSQL). The halved throughput first blamed on it was a loaded
    // host; a quiet one measured no difference. A progress event that comes before the read ends carries no
    // customer price yet; the result always does.
    const rules: Promise<PricingRule[]> =
      owner === undefined ? Promise.resolve([]) : store.pricing.forAccount(owner);
    const finishing: FinishContext = {
      shipment,
      now: clock.now(),
      dayRules: (carrier: string) => dayRulesFor(carrier, settings),
      pricing: [],
    };
    void rules.then(
      (found) => (finishing.pricing = found),
      () => undefined,
    );
    const result = await quoteAll(shipment, set, health, {
      today: moscowDate(finishing.now),
      deadlineMs: Number(settings.get('rating.deadline_ms')),
      carrierTimeoutMs: Number(settings.get('rating.carrier_timeout_ms')),
      ...(breakers
        ? { breakers: { board: breakers, cooldownMs: Number(settings.get('rating.breaker_cooldown_ms')) } }
        : {}),
      ...(cacheTtlMs > 0
        ? {
            cache: {
              store: rateCache,
              ttlMs: cacheTtlMs,
              scope: registry.sandbox() ? 'sandbox' : 'live',
              sharing: settings.get('rating.cache_sharing') === 'shared' ? 'shared' : 'account',
            },
          }
        : {}),
      account,
      ...(onProgress
        ? {
            onProgress: (p: QuoteProgress) =>
              onProgress(
                p.state === 'answered' ? { ...p, rates: p.rates.map((r) => finishRate(r, finishing)) } : p,
              ),
          }
        : {}),
      ...(signal ? { signal } : {}),
      ...(probeNow ? { probeNow } : {}),
    });
    return finishResult(result, { ...finishing, pricing: await rules });
  }

  const points = createPointSearch({
    store,
    clock,
    logger,
    refreshHours: () => Number(settings.get('points.refresh_hours')),
    // The enabled carrier's adapter, as quotes get it: its directory talks to the same host with the same account.
    directoryOf: async (code) => {
      const adapter = (await registry.carrierSet()).adapters.get(code);
      if (!adapter) return { kind: 'unknown' };
      return adapter.points ? { kind: 'directory', directory: adapter.points } : { kind: 'none' };
    },
  });

  const runtime: ApiRuntime = {
    store,
    keyCache: new KeyCache(store.keys, store.changes),
    clock,
    logger,
    maxInFlightPerAccount: () => Number(settings.get('rating.max_in_flight_per_account')),
    idempotencyLeaseMs: database?.idempotencyLeaseMs ?? IDEMPOTENCY_LEASE_MS,
    isSandbox: () => registry.sandbox(),
    quote: (shipment, account, signal) => rate(shipment, account, undefined, signal),
    points,
    // On a company server every instance answers with the status the instances last recorded together.
    carriers: async (): Promise<CarrierInfo[]> =>
      registry.info(store.carrierCoordination ? await sharedHealth(store, health) : health),
    openApiJson: () => (openApiJson ??= JSON.stringify(buildOpenApiDocument())),
    onBalanceChanged: (accountId, balance) => events.emit('balance-changed', { accountId, balance }),
    onLowBalance: (e) => {
      logger.warn('low balance', { account: e.accountName, balance: e.balance, threshold: e.threshold });
      events.emit('low-balance', e);
    },
  };

  const purge = (): Promise<void> =>
    store
      .purgeIdempotencyBefore(clock.now().getTime() - IDEMPOTENCY_RETENTION_MS)
      .then((removed) => {
        if (removed) logger.info('purged expired idempotency records', { removed });
      })
      .catch((err: unknown) => logger.warn('idempotency records not purged', { error: String(err) }));
  await purge();
  const purgeTimer = setInterval(() => void purge(), 60 * 60 * 1000);
  purgeTimer.unref();
  // Rate-card rows a crashed or failed import left hidden, in the background.
  store.rateCards
    .purgeAbandoned()
    .catch((err: unknown) => logger.warn('abandoned rate-card rows not deleted yet', { error: String(err) }));

  await registry.warmUp();

  let listener: ApiListener | null = null;
  let listenerError: string | null = null;
  async function startListener(): Promise<ApiListener | null> {
    listenerError = null;
    try {
      return await bindListener();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (!options.tolerateListenerFailure || e.syscall !== 'listen') throw err;
      listenerError = `The /v1 API could not start (${e.code ?? 'error'}): ${e.message}`;
      logger.warn('listener did not start; running without it', { code: e.code, message: e.message });
      return null;
    }
  }
  async function bindListener(): Promise<ApiListener | null> {
    if (options.listen === false) return null;
    if (options.listen === undefined && settings.get('listener.enabled') !== 'on') return null;
    const host = (options.listen && options.listen.host) || settings.get('listener.host');
    const port =
      options.listen && options.listen.port !== undefined
        ? options.listen.port
        : Number(settings.get('listener.port'));
    listener = await startApiListener(runtime, {
      host,
      port,
      allowRemote: (options.listen && options.listen.allowRemote) ?? false,
      ...(options.listen && options.listen.company ? { company: options.listen.company } : {}),
    });
    return listener;
  }
  try {
    await startListener();
  } catch (err) {
    await registry.close();
    await store.close();
    unlock();
    throw err;
  }

  // In every host (serve, the desktop, the tests' harnesses), after the listener so that nothing of the start
  // waits for it. Fixed in-process adapters (benchmarks, the ledger model) have nothing to warm.
  warmUp =
    options.warmUp === false || options.adapters
      ? null
      : new WarmUp({
          carrierSet: () => registry.carrierSet(),
          simulated: (code) => registry.simulated(code),
          sandbox: () => settings.get('sandbox') === 'on',
          route: async () =>
            warmUpRoute(
              (await store.quotes.search('', WARM_UP_HISTORY_ROWS, 0)).flatMap((row) => {
                const shipment = parseStoredShipment(row.shipment_json);
                return shipment ? [{ source: row.source, from: shipment.from, to: shipment.to }] : [];
              }),
            ),
          deadlineMs: () => Number(settings.get('rating.deadline_ms')),
          carrierTimeoutMs: () => Number(settings.get('rating.carrier_timeout_ms')),
          logger,
          ...(Array.isArray(options.warmUp) ? { phases: options.warmUp } : {}),
        });
  const warmedUp: Promise<WarmUpReport | null> = warmUp ? warmUp.settled : Promise.resolve(null);

  const deskListeners = new Set<DeskListener>();
  const emitDesk: DeskEmit = (event, payload) => {
    for (const listener of deskListeners) listener(event, payload);
  };
  const detachDeskEvents = attachDeskEvents(events, store, emitDesk);
  const parts: ServiceParts = {
    settings,
    health,
    events,
    listener: () => listener,
    restartListener: async () => {
      if (listener) await listener.close();
      listener = null;
      return startListener();
    },
    sandbox: () => registry.sandbox(),
    // The desk is one asker of its own: its failures and its cached answers are the desk's.
    rate: (shipment, onProgress, probeNow) => rate(shipment, DESK_ACCOUNT, onProgress, undefined, probeNow),
    points,
    checkCarrier: (code, check) =>
      runCarrierCheck(code, { settings, logger, now: () => clock.now(), ...check }),
  };
  const company = options.companyDesk
    ? new DeskCompanyLink({
        settings: store.settings,
        clock,
        logger,
        emitStatus: (status) => emitDesk('company:status', status),
        ...(typeof options.companyDesk === 'object' ? { retry: options.companyDesk.retry } : {}),
      })
    : null;
  if (company) parts.company = company;
  const deskContext: ServiceContext = {
    store,
    clock,
    service: parts,
    emit: emitDesk,
    app: { version: options.appVersion ?? '0.0.0', dataDir: options.dataDir },
  };

  // After everything else has started: connecting to the company server waits for nothing here.
  await company?.resume();
  let gateway: DeskGateway | null = null;
  if (options.deskGateway) {
    gateway = createDeskGateway({
      context: deskContext,
      subscribe: (listener) => {
        deskListeners.add(listener);
        return () => deskListeners.delete(listener);
      },
      clock,
      logger,
      version: deskContext.app.version,
      ...(typeof options.deskGateway === 'object' ? { keepAliveMs: options.deskGateway.keepAliveMs } : {}),
    });
    // Read per request: the listener started above answers /desk/ from here on (a 404 before).
    runtime.extension = gateway.extension;
  }

  return {
    store,
    clock,
    events,
    settings,
    health,
    get listener(): ApiListener | null {
      return listener;
    },
    /** Why the listener is not running although it should (tolerateListenerFailure); null otherwise. */
    get listenerError(): string | null {
      return listenerError;
    },
    sandbox: () => registry.sandbox(),
    /**
     * Settles when the background warm-up has finished or stopped (null when it is off): tests and the
     * benchmark wait for it before timing a first quote.
     */
    warmedUp,
    /** Hits and misses of the rate cache (the benchmark's hit rate). */
    rateCacheStats: () => rateCache.stats(),
    carriers: () => registry.info(health),
    carrierHealth: async (): Promise<CarrierHealth[]> =>
      (await registry.info(health)).map((c) => health.get(c.code)),
    /** Stops and starts the listener with the current settings (desk: listener on/off, port, host). */
    restartListener: parts.restartListener,
    /** The desk gateway when `deskGateway` asked for it (tests count its event streams). */
    gateway,
    /** The desk's company link when `companyDesk` asked for it (core/desk/router.ts routes by it). */
    company,
    /** The desk: every operation through one call, and every desk event to its subscribers. */
    desk: {
      /** What operations run with inside this service (tests run an operation table of their own with it). */
      context: deskContext,
      dispatch: (channel: string, raw: unknown): Promise<DeskResult<unknown>> =>
        dispatchDesk(deskContext, channel, raw, logger),
      /** Returns its unsubscribe function. */
      subscribe(listener: DeskListener): () => void {
        deskListeners.add(listener);
        return () => deskListeners.delete(listener);
      },
    },
    async close(): Promise<void> {
      clearInterval(purgeTimer);
      // Before the simulators stop: its throwaway quote is aborted rather than left failing against them.
      await warmUp?.close();
      await company?.close();
      detachDeskEvents();
      // Its event streams never go idle: ended first, or the listener's close would wait for them.
      gateway?.close();
      if (listener) await listener.close();
      listener = null;
      await registry.close();
      // Writes whatever is still queued (a key's last use, a health row), then closes.
      await store.close();
      unlock();
    },
  };
}

/**
 * The carriers' status as the store last recorded it from any instance, this instance's own where none is (a
 * company server: GET /v1/carriers says the same whichever instance answers).
 */
async function sharedHealth(store: Store, own: HealthBoard): Promise<Pick<HealthBoard, 'get'>> {
  const rows = new Map((await store.carrierHealth.all()).map((row) => [row.code, row]));
  return {
    get(code) {
      const row = rows.get(code);
      return row ? { ...own.get(code), status: row.status } : own.get(code);
    },
  };
}

/** ensureDataFolder creates the folder too, but the lock file is placed before the store is opened. */
function mkdirFor(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
