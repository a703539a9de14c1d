// Boxberry adapter (protocols.md §3, verified-2026 §3): city codes from ListCitiesFull (through the location
// resolver), ZipCheck for the recipient's index, then one DeliveryCalculation per delivery type, as the
// official plugin prices each of its shipping methods. Speaks the live protocol unchanged, so the same code
// talks to api.boxberry.ru, test-ecom.boxberry.ru and the local simulator.
import { findCity } from '../../locations/cities';
import { createLocationResolver, type LocationResolver } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierAdapter, CarrierFailure, CarrierOutcome, CarrierQuoteRequest } from '../types';
import type { CarrierRate } from '../../contract/quote-ext';
import { boxberryErrorText } from './errors';
import { BOXBERRY_LIMITS } from './limits';
import { boxberryCityDirectory, CITY_LIST_MAX_BYTES } from './locations';

export { CITY_LIST_MAX_BYTES };
import { BOXBERRY_CARRIER_CODE, BOXBERRY_CARRIER_NAME, readDeliveryCalculation } from './mapper';
import {
  BOXBERRY_DELIVERY_TYPES,
  buildDeliveryCalculation,
  zipCheckUrl,
  type BoxberryDeliveryType,
} from './request';
import { BoxberryZipCheck } from './schema';

export interface BoxberryAdapterOptions {
  /** The json.php endpoint, e.g. https://api.boxberry.ru/json.php. */
  baseUrl: string;
  token: string | null;
  locations?: LocationResolver;
  logger?: Logger;
  nowMs?: () => number;
  /**
   * The city lists' answer cap, CITY_LIST_MAX_BYTES by default. A list over it falls back to ListCities
   * (towns with pickup points), so a Boxberry list grown past it still quotes (tests set it low to show that).
   */
  cityListMaxBytes?: number;
}

/**
 * A sender's town must take parcels (audit B4). Boxberry's cabinet calculator offers as senders only «населенные
 * пункты, в которых есть пункты приема» (help.boxberry.ru, «Рассчитать отправление»), and the city list says
 * which they are: `Reception` 1, «приём заказов от ИМ на пунктах выдачи». What DeliveryCalculation answers for
 * another SenderCityId is not published, so such a sender is an honest no-service naming the cause, and no
 * calculator call is made. A row without the flag is not refused. false: send any sender (if a live test shows
 * Boxberry prices senders without a reception point, e.g. through a courier pickup).
 */
export const BOXBERRY_SENDER_NEEDS_RECEPTION: boolean = true;

/** What ZipCheck said about an index is kept a day: courier zones change rarely. */
const ZIP_CHECK_TTL_MS = 24 * 60 * 60 * 1000;
const ZIP_CHECK_ENTRIES = 2_000;

type ZipVerdict = 'courier' | 'no_courier' | 'unknown';

export function createBoxberryAdapter(options: BoxberryAdapterOptions): CarrierAdapter {
  const token = options.token?.trim() ?? '';
  if (token === '') {
    return {
      code: BOXBERRY_CARRIER_CODE,
      name: BOXBERRY_CARRIER_NAME,
      limits: BOXBERRY_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail: 'Boxberry token is not set' }),
    };
  }
  const baseUrl = options.baseUrl;
  const logger = options.logger ?? silentLogger;
  const nowMs = options.nowMs ?? Date.now;
  const resolver = options.locations ?? createLocationResolver();
  // City codes belong to a host: the simulator's made-up ones must never answer for api.boxberry.ru.
  const directory = boxberryCityDirectory(baseUrl, token, nowMs, options.cityListMaxBytes);
  const zipVerdicts = new Map<string, { verdict: ZipVerdict; at: number }>();

  async function cityCode(
    place: CarrierQuoteRequest['from'],
    signal: AbortSignal,
  ): Promise<{ ok: true; code: string } | { ok: false; failure: CarrierFailure }> {
    const r = await resolver.resolve(place, 'boxberry_city_code', { directory, signal });
    if (r.ok) return { ok: true, code: r.value };
    if (r.kind === 'carrier_error')
      return { ok: false, failure: { kind: 'carrier_error', detail: r.detail } };
    // Only the pickup-point towns could be loaded: a town of the table missing from them may be one Boxberry
    // serves by courier alone, which is not "unknown" — it is a town this list cannot price.
    const town = findCity(place.city, place.postalCode);
    if (town && directory.coverage() === 'pickup_points') {
      const detail =
        `${town.name} is not among Boxberry's pickup-point towns (ListCities); ListCitiesFull was over the ` +
        'size limit, so towns served by courier alone cannot be quoted';
      return { ok: false, failure: { kind: 'no_service', detail } };
    }
    return { ok: false, failure: { kind: 'city_not_found', detail: r.detail } };
  }

  /** A sender Boxberry takes no parcels from: the honest reason, or null to go on. */
  async function refusedSender(
    place: CarrierQuoteRequest['from'],
    code: string,
    signal: AbortSignal,
  ): Promise<CarrierFailure | null> {
    if (!BOXBERRY_SENDER_NEEDS_RECEPTION || (await directory.reception(code, signal)) !== false) return null;
    const town = findCity(place.city, place.postalCode)?.name ?? place.city.trim();
    return {
      kind: 'no_service',
      detail: `Boxberry takes no parcels in ${town}: no reception point there (city list: Reception 0)`,
    };
  }

  /**
   * Boxberry: "courier delivery is decided by the recipient's index: check it with ListZips or ZipCheck"
   * (BB-HELP). The official plugin passes Zip only when ZipCheck says ExpressDelivery 1; a failed check
   * leaves the index out and prices by city, as the plugin does.
   */
  async function zipVerdict(zip: string, signal: AbortSignal): Promise<ZipVerdict> {
    const hit = zipVerdicts.get(zip);
    if (hit && nowMs() - hit.at < ZIP_CHECK_TTL_MS) return hit.verdict;
    const res = await carrierRequest(zipCheckUrl(baseUrl, token, zip), { method: 'GET', signal });
    let verdict: ZipVerdict = 'unknown';
    if (res.status === 200 && boxberryErrorText(res.json) === undefined) {
      const parsed = BoxberryZipCheck.safeParse(res.json);
      if (parsed.success) verdict = Number(parsed.data[0]!.ExpressDelivery) === 1 ? 'courier' : 'no_courier';
    }
    if (verdict !== 'unknown') {
      if (zipVerdicts.size >= ZIP_CHECK_ENTRIES) zipVerdicts.delete(zipVerdicts.keys().next().value!);
      zipVerdicts.set(zip, { verdict, at: nowMs() });
    }
    return verdict;
  }

  async function calculate(
    request: CarrierQuoteRequest,
    from: string,
    to: string,
    type: BoxberryDeliveryType,
    zip: string | null,
    signal: AbortSignal,
  ) {
    const body = buildDeliveryCalculation({
      token,
      senderCityId: from,
      recipientCityId: to,
      deliveryType: type,
      zip,
      places: request.places,
      declaredValueKopecks: request.declaredValueKopecks,
      codKopecks: request.codKopecks,
    });
    const res = await carrierRequest(baseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
    const reading = readDeliveryCalculation(res.status, res.json, type, {
      declaredValueKopecks: request.declaredValueKopecks,
      codKopecks: request.codKopecks,
    });
    if (!reading.ok && reading.unknownText !== undefined) {
      // Boxberry has no error codes; an unfamiliar text is how we learn what else it says.
      logger.warn('Boxberry answered an error RateDesk does not know', {
        message: reading.unknownText,
        delivery_type: type,
        outcome: reading.failure.kind,
      });
    }
    return reading;
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const postal = request.to.postalCode?.trim() || null;
    const [from, to, verdict] = await Promise.all([
      cityCode(request.from, signal),
      cityCode(request.to, signal),
      postal ? zipVerdict(postal, signal) : Promise.resolve<ZipVerdict>('unknown'),
    ]);
    if (!from.ok) return { ok: false, ...from.failure };
    if (!to.ok) return { ok: false, ...to.failure };
    const refused = await refusedSender(request.from, from.code, signal);
    if (refused) return { ok: false, ...refused };

    const zip = verdict === 'courier' ? postal : null;
    // Boxberry's courier does not go to that index: only the pickup-point variant is asked for.
    const types = verdict === 'no_courier' ? [1 as const] : BOXBERRY_DELIVERY_TYPES;
    const readings = await Promise.all(
      types.map((type) => calculate(request, from.code, to.code, type, zip, signal)),
    );
    const rates: CarrierRate[] = readings.flatMap((r) => (r.ok ? [r.rate] : []));
    if (rates.length > 0) return { ok: true, rates };
    const failures = readings.flatMap((r) => (r.ok ? [] : [r.failure]));
    const worst =
      failures.find((f) => f.kind === 'carrier_error') ??
      failures.find((f) => f.kind === 'city_not_found') ??
      failures[0];
    if (worst && worst.kind !== 'no_service') return { ok: false, ...worst };
    const detail =
      verdict === 'no_courier' ? `no pickup point variant; courier does not serve ${postal}` : undefined;
    return {
      ok: false,
      kind: 'no_service',
      detail: detail ?? failures.map((f) => ('detail' in f ? f.detail : f.kind)).join('; '),
    };
  }

  return {
    code: BOXBERRY_CARRIER_CODE,
    name: BOXBERRY_CARRIER_NAME,
    limits: BOXBERRY_LIMITS,
    // Every quote needs the city list (the sender's reception flag), and it is kept for a day: one GET, with
    // no quota of Boxberry's, so the warm-up loads it in live mode too (docs/carriers.md, "Warm-up").
    prepare: ({ signal }) => directory.preload(signal),
    async quote(request, { signal }) {
      try {
        return await quote(request, signal);
      } catch (err) {
        // Carrier faults become outcomes; an abort (timeout/deadline) and our own bugs propagate.
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `Boxberry: ${err.message}` };
        }
        throw err;
      }
    },
  };
}
