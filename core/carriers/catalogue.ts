// The carriers built into RateDesk, one entry each: its settings description (hosts, credentials), how its
// adapter is made for a host, and how its simulator starts. The registry turns settings into adapters from
// this list alone, so a carrier added later is one more entry here (and its folder), nothing else.
import { createLocationResolver, type LocationResolver } from '../locations/resolver';
import type { SettingsView } from '../settings/view';
import {
  BOXBERRY_SETTINGS,
  CDEK_SETTINGS,
  DELLIN_SETTINGS,
  DPD_SETTINGS,
  FIVEPOST_SETTINGS,
  PEK_SETTINGS,
  RUSSIAN_POST_SETTINGS,
  YANDEX_SETTINGS,
} from '../settings/schema';
import type { Db } from '../store/open';
import type { CarrierSettingsSpec } from '../settings/carrier-settings';
import { silentLogger, type Logger } from '../util/logger';
import { createBoxberryAdapter } from './boxberry';
import { createCdekAdapter } from './cdek';
import { createFivePostAdapter, memoryCatalogueStore, sqliteCatalogueStore } from './fivepost';
import { createDellinAdapter } from './dellin';
import { createDpdAdapter } from './dpd';
import { createPekAdapter, NO_RATE_LIMIT, parsePekTypes } from './pek';
import { createRussianPostAdapter } from './russian-post';
import { parseObjectCodes } from './russian-post/objects';
import { startBoxberrySimulator } from './simulators/boxberry';
import { startCdekSimulator } from './simulators/cdek';
import { startFivePostSimulator } from './simulators/fivepost';
import { startDellinSimulator } from './simulators/dellin';
import { startDpdSimulator } from './simulators/dpd';
import type { SimulatorHandle } from './simulators/handle';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from './simulators/pek';
import { startRussianPostSimulator } from './simulators/russian-post';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from './simulators/yandex';
import { createYandexAdapter } from './yandex';
import type { CarrierAdapter, CarrierCode } from './types';

export interface AdapterTarget {
  baseUrl: string;
  /** The built-in simulator answers (sandbox mode, or endpoint = simulator): use its test account. */
  simulated: boolean;
}

/**
 * What every adapter shares with the rest of the service, one per service: the location resolver with its
 * SQLite cache (`createLocationResolver({ cache: sqliteLocationCache(store.db) })`, so what a carrier's
 * directory said survives restarts and adapter rebuilds) and the service's logger (unknown carrier error
 * codes). Without one (tests, benchmarks) adapters share an in-memory resolver and log nothing.
 */
export interface CarrierEnvironment {
  locations: LocationResolver;
  logger: Logger;
  /**
   * The data file, for carriers that keep more than places: 5Post keeps its pickup-point catalogue in it
   * (migration 0007), so a restart quotes at once instead of downloading again. Without it, memory.
   */
  db?: Db;
  /** The service clock's wall time (dates a carrier wants, such as Dellin's produceDate); the system's when absent. */
  now?: () => Date;
}

export interface BuiltInCarrier {
  code: CarrierCode;
  settings: CarrierSettingsSpec<CarrierCode>;
  /** Settings (beyond enabled/endpoint/base_url/timeout) whose change rebuilds the adapter. */
  configKeys: readonly string[];
  create(target: AdapterTarget, settings: SettingsView, environment?: CarrierEnvironment): CarrierAdapter;
  startSimulator(options: { latencyMs: number }): Promise<SimulatorHandle>;
  /**
   * Quotes from data it keeps (5Post: its pickup-point catalogue), so a quote makes no call to the carrier;
   * per-request network faults cannot reach it (the carrier chaos suite leaves such carriers out).
   */
  quotesFromLocalData?: true;
}

/** Credentials between the sandbox adapter and simulator only; not a real account. */
const SANDBOX_CDEK = { id: 'ratedesk-sandbox', secret: 'ratedesk-sandbox-secret' } as const;
const SANDBOX_BOXBERRY_TOKEN = 'ratedesk-sandbox-boxberry-token';
const SANDBOX_FIVEPOST_KEY = 'ratedesk-sandbox-5post-key';
const SANDBOX_DPD = { clientNumber: '9999999999', clientKey: 'ratedesk-sandbox-dpd-key' } as const;
const SANDBOX_DELLIN = { appkey: 'ratedesk-sandbox-dellin-appkey' } as const;

export const BUILT_IN_CARRIERS: readonly BuiltInCarrier[] = [
  {
    code: 'cdek',
    settings: CDEK_SETTINGS,
    configKeys: ['carriers.cdek.client_id', 'carriers.cdek.client_secret', 'carriers.cdek.contract_type'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createCdekAdapter({
        baseUrl,
        ...(simulated
          ? { clientId: SANDBOX_CDEK.id, clientSecret: SANDBOX_CDEK.secret }
          : {
              clientId: s.get('carriers.cdek.client_id') || null,
              clientSecret: s.get('carriers.cdek.client_secret') || null,
            }),
        contractType: s.get('carriers.cdek.contract_type') === '2' ? 2 : 1,
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) =>
      startCdekSimulator({ latencyMs, clientId: SANDBOX_CDEK.id, clientSecret: SANDBOX_CDEK.secret }),
  },
  {
    code: 'russian-post',
    settings: RUSSIAN_POST_SETTINGS,
    configKeys: ['carriers.russian-post.objects'],
    create: ({ baseUrl }, s, environment = defaultEnvironment()) =>
      createRussianPostAdapter({
        baseUrl,
        objects: parseObjectCodes(s.get('carriers.russian-post.objects')),
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startRussianPostSimulator({ latencyMs }),
  },
  {
    code: 'boxberry',
    settings: BOXBERRY_SETTINGS,
    configKeys: ['carriers.boxberry.token'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createBoxberryAdapter({
        baseUrl,
        token: simulated ? SANDBOX_BOXBERRY_TOKEN : s.get('carriers.boxberry.token') || null,
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startBoxberrySimulator({ latencyMs, token: SANDBOX_BOXBERRY_TOKEN }),
  },
  {
    code: 'dpd',
    settings: DPD_SETTINGS,
    configKeys: ['carriers.dpd.client_number', 'carriers.dpd.client_key', 'carriers.dpd.contract_currency'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createDpdAdapter({
        baseUrl,
        ...(simulated
          ? SANDBOX_DPD
          : {
              clientNumber: s.get('carriers.dpd.client_number') || null,
              clientKey: s.get('carriers.dpd.client_key') || null,
            }),
        contractCurrency: simulated ? 'RUB' : s.get('carriers.dpd.contract_currency'),
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startDpdSimulator({ latencyMs, ...SANDBOX_DPD }),
  },
  {
    code: 'dellin',
    settings: DELLIN_SETTINGS,
    configKeys: ['carriers.dellin.appkey'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createDellinAdapter({
        baseUrl,
        appkey: simulated ? SANDBOX_DELLIN.appkey : s.get('carriers.dellin.appkey') || null,
        ...(environment.now ? { now: environment.now } : {}),
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startDellinSimulator({ latencyMs, ...SANDBOX_DELLIN }),
  },
  {
    code: 'pek',
    settings: PEK_SETTINGS,
    configKeys: ['carriers.pek.login', 'carriers.pek.api_key', 'carriers.pek.types'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createPekAdapter({
        baseUrl,
        ...(simulated
          ? // PEK's 100 requests a minute is PEK's, not the simulator's (pek/rate-limit.ts).
            { login: PEK_SIM_LOGIN, apiKey: PEK_SIM_API_KEY, limiter: NO_RATE_LIMIT }
          : { login: s.get('carriers.pek.login') || null, apiKey: s.get('carriers.pek.api_key') || null }),
        types: parsePekTypes(s.get('carriers.pek.types')),
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startPekSimulator({ latencyMs }),
  },
  {
    code: 'yandex',
    settings: YANDEX_SETTINGS,
    configKeys: ['carriers.yandex.token', 'carriers.yandex.platform_station_id'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createYandexAdapter({
        baseUrl,
        token: simulated ? YANDEX_SIM_TOKEN : s.get('carriers.yandex.token') || null,
        sourceStationId: simulated ? null : s.get('carriers.yandex.platform_station_id') || null,
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startYandexSimulator({ latencyMs }),
  },
  {
    code: '5post',
    quotesFromLocalData: true,
    settings: FIVEPOST_SETTINGS,
    configKeys: ['carriers.5post.apikey', 'carriers.5post.overweight'],
    create: ({ baseUrl, simulated }, s, environment = defaultEnvironment()) =>
      createFivePostAdapter({
        baseUrl,
        apiKey: simulated ? SANDBOX_FIVEPOST_KEY : s.get('carriers.5post.apikey') || null,
        overweight: s.get('carriers.5post.overweight') === 'proportional' ? 'proportional' : 'per_started_kg',
        store: environment.db ? sqliteCatalogueStore(environment.db) : memoryCatalogueStore(),
        locations: environment.locations,
        logger: environment.logger,
      }),
    startSimulator: ({ latencyMs }) => startFivePostSimulator({ latencyMs, apiKey: SANDBOX_FIVEPOST_KEY }),
  },
];

/** One in-memory resolver for every adapter built without an environment, so they share what CDEK said. */
let fallbackEnvironment: CarrierEnvironment | undefined;
function defaultEnvironment(): CarrierEnvironment {
  fallbackEnvironment ??= { locations: createLocationResolver(), logger: silentLogger };
  return fallbackEnvironment;
}
