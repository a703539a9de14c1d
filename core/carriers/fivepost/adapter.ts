// 5Post adapter (protocols.md §8, verified-2026 §8). 5Post has no price calculator: prices come with its
// pickup-point catalogue, which this adapter keeps (catalogue.ts) and quotes from (quote.ts). A quote on a
// warm catalogue makes no network call at all; the JWT (token.ts) is only needed to download it.
import { findCity, normaliseCityName } from '../../locations/cities';
import { createLocationResolver, type LocationResolver } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError } from '../http';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { FivePostCatalogue } from './catalogue';
import { memoryCatalogueStore, type FivePostCatalogueStore } from './catalogue-store';
import { hubOfSender } from './hub';
import { FIVEPOST_LIMITS } from './limits';
import type { StoredPoint } from './points';
import { FIVEPOST_CARRIER_CODE, FIVEPOST_CARRIER_NAME, quoteFromPoints, type OverweightRule } from './quote';
import type { CarrierCoordinationStore } from '../../store/port';
import { tokenSlotName } from '../shared-token';
import { FivePostTokenSource } from './token';
import { fiasKey, townNameKey } from './town';

export interface FivePostAdapterOptions {
  /** API host, e.g. https://api-omni.x5.ru or https://api-preprod-omni.x5.ru. */
  baseUrl: string;
  apiKey: string | null;
  /** Setting carriers.5post.overweight (quote.ts). */
  overweight?: OverweightRule;
  /** Where the catalogue is kept: the store's `pickupCatalogue` in the running service, memory otherwise. */
  store?: FivePostCatalogueStore;
  locations?: LocationResolver;
  logger?: Logger;
  nowMs?: () => number;
  /** Points per catalogue page (tests of paging); CATALOGUE_PAGE_SIZE by default. */
  pageSize?: number;
  /** Catalogue points a second (tests); PACE_POINTS_PER_SECOND by default (download-limits.ts). */
  pointsPerSecond?: number;
  /** A company server's shared carrier state: one JWT and one catalogue download for every instance. */
  coordination?: CarrierCoordinationStore;
}

export function createFivePostAdapter(options: FivePostAdapterOptions): CarrierAdapter {
  const apiKey = options.apiKey?.trim() ?? '';
  if (apiKey === '') {
    return {
      code: FIVEPOST_CARRIER_CODE,
      name: FIVEPOST_CARRIER_NAME,
      limits: FIVEPOST_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail: '5Post API key is not set' }),
    };
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const nowMs = options.nowMs ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const store = options.store ?? memoryCatalogueStore();
  const resolver = options.locations ?? createLocationResolver();
  const rule: OverweightRule = options.overweight ?? 'per_started_kg';
  // The simulator's points must never answer for api-omni.x5.ru, nor preprod's for production.
  const namespace = `5post ${baseUrl}`;
  const catalogue = new FivePostCatalogue({
    baseUrl,
    namespace,
    store,
    tokens: new FivePostTokenSource(
      baseUrl,
      apiKey,
      nowMs,
      options.coordination
        ? { coordination: options.coordination, name: tokenSlotName('5post', baseUrl, '', apiKey) }
        : undefined,
    ),
    ...(options.coordination ? { coordination: options.coordination } : {}),
    logger,
    nowMs,
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.pointsPerSecond !== undefined ? { pointsPerSecond: options.pointsPerSecond } : {}),
  });

  /**
   * The recipient's points. An index at which 5Post has points names their town (precise where a name is
   * ambiguous); otherwise the city table's reading of the name: the points 5Post files under that city's
   * FIAS code (town.ts), plus those only its name places there. Every point of that town counts: a buyer
   * picks whichever point suits, not the one at his own index.
   */
  async function candidates(to: CarrierQuoteRequest['to']): Promise<{
    points: StoredPoint[];
    place: string;
    known: boolean;
  }> {
    const zip = to.postalCode?.trim() || null;
    if (zip) {
      const atZip = await store.byZip(namespace, zip);
      if (atZip.length > 0) {
        const keys = [...new Set(atZip.map((p) => p.cityKey))];
        const inTown = (await Promise.all(keys.map((key) => store.byCity(namespace, key)))).flatMap(
          (points) => points.filter((p) => sameRegionOf(p, atZip)),
        );
        return { points: inTown, place: to.city.trim() || zip, known: true };
      }
    }
    const city = findCity(to.city, zip);
    const name = city?.name ?? to.city.split(',')[0]!.trim();
    const exact = city ? await store.byCity(namespace, fiasKey(city)) : [];
    let named = await store.byCity(namespace, townNameKey(name));
    if (city && named.length > 0 && (exact.length > 0 || new Set(named.map((p) => p.region)).size > 1)) {
      // Namesakes (Киров, Кировская vs Калужская): of the points placed by name only, those of the table's
      // region, when 5Post names it.
      const inRegion = named.filter((p) => sameRegion(p.region, city.region));
      if (inRegion.length > 0 || exact.length > 0) named = inRegion;
    }
    const points = [...exact, ...named];
    return { points, place: name, known: city !== null || points.length > 0 };
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    // The sender hands parcels to a 5Post hub: its place picks the hub's rate (hub.ts), and must be a place,
    // as for every carrier.
    const from = await resolver.resolve(request.from, 'postal_code', { signal });
    if (!from.ok && from.kind === 'city_not_found')
      return { ok: false, kind: 'city_not_found', detail: from.detail };
    const hub = hubOfSender(from.ok ? from.value : request.from.postalCode);

    const ready = await catalogue.ready(signal);
    if (!ready.ok) return { ok: false, ...ready.failure };
    const found = await candidates(request.to);
    if (found.points.length === 0 && !found.known) {
      return { ok: false, kind: 'city_not_found', detail: request.to.city.trim() || '(no city)' };
    }
    const result = quoteFromPoints(found.points, request, rule, found.place, hub);
    return result.ok ? { ok: true, rates: result.rates } : { ok: false, ...result.failure };
  }

  return {
    code: FIVEPOST_CARRIER_CODE,
    name: FIVEPOST_CARRIER_NAME,
    limits: FIVEPOST_LIMITS,
    // Against the simulator the warm-up downloads the catalogue as a first quote would. A live one is
    // ~55 MB under 5Post's hourly and daily download windows: never fetched ahead; a stored one is read by
    // the quote itself (docs/carriers.md, "Warm-up").
    async prepare({ signal, live }) {
      if (!live) await catalogue.ready(signal, true);
    },
    async quote(request, { signal }) {
      try {
        return await quote(request, signal);
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `5Post: ${err.message}` };
        }
        throw err;
      }
    },
  };
}

const GENERIC = new Set(['область', 'обл', 'край', 'республика', 'респ', 'автономный', 'округ', 'ао', 'г']);

/** A point of the town found by index, in the region of one of the points at that index. */
function sameRegionOf(point: StoredPoint, atZip: readonly StoredPoint[]): boolean {
  return atZip.some((z) => z.cityKey === point.cityKey && z.region === point.region);
}

function sameRegion(a: string, b: string): boolean {
  const words = (s: string) =>
    normaliseCityName(s.replace(/[.()/—-]/g, ' '))
      .split(' ')
      .filter((w) => w.length > 1 && !GENERIC.has(w));
  const theirs = words(a);
  return words(b).some((w) => theirs.includes(w));
}
