// Yandex Delivery «другой день» adapter (verified-2026.md §7): places → geo_id and pickup points (cached) →
// pricing-calculator twice, courier to the door (time_interval) and to a pickup point (self_pickup) → rates.
// The source is the account's warehouse station (setting carriers.yandex.platform_station_id) or, without
// one, a drop-off point in the sender's city. Speaks the live protocol unchanged, so the same code runs
// against b2b-authproxy.taxi.yandex.net, the test host and the local simulator.
// The door leg needs only the recipient's address: a failed location/detect or pickup-point lookup of the
// recipient loses the pickup-point rate, never the door rate (audit Y6). The source is different: without a
// station Yandex prices nothing, so a failed drop-off lookup fails the quote.
import { findCity } from '../../locations/cities';
import { createLocationResolver, type LocationResolver } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError } from '../http';
import type {
  CarrierAdapter,
  CarrierFailure,
  CarrierOutcome,
  CarrierQuoteRequest,
  QuoteLocation,
} from '../types';
import { YANDEX_LIMITS } from './limits';
import { geoDirectory, YANDEX_DOOR_BY_TOWN_ADDRESS, yandexAddress, yandexApi } from './locations';
import { readPricing, YANDEX_CARRIER_CODE, YANDEX_CARRIER_NAME } from './mapper';
import { pointDirectory } from './points';
import { buildPricingRequest, type YandexDestination, type YandexTariff } from './request';

export interface YandexAdapterOptions {
  /** Host, e.g. https://b2b-authproxy.taxi.yandex.net (paths start with /api/b2b/platform). */
  baseUrl: string;
  /** The cabinet's API token (Bearer), a secret alone: Yandex has no account id here. */
  token: string | null;
  /** The account's shipping warehouse station; null: a drop-off point in the sender's city. */
  sourceStationId?: string | null;
  locations?: LocationResolver;
  logger?: Logger;
}

type Found<T> = { ok: true; value: T } | { ok: false; failure: CarrierFailure };

export function createYandexAdapter(options: YandexAdapterOptions): CarrierAdapter {
  const token = options.token?.trim() ?? '';
  if (token === '') {
    return {
      code: YANDEX_CARRIER_CODE,
      name: YANDEX_CARRIER_NAME,
      limits: YANDEX_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail: 'Yandex Delivery token is not set' }),
    };
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const ownStation = options.sourceStationId?.trim() || null;
  const logger = options.logger ?? silentLogger;
  const resolver = options.locations ?? createLocationResolver();
  const api = yandexApi(baseUrl, token);
  const geo = geoDirectory(api, baseUrl);
  const pickupPoints = pointDirectory(api, baseUrl, resolver, geo, 'pickup');
  // With cash on delivery the point must take the payment: a card on receipt, the calculator's COD method.
  const cardPickupPoints = pointDirectory(api, baseUrl, resolver, geo, 'pickup_card');
  const dropoffPoints = pointDirectory(api, baseUrl, resolver, geo, 'dropoff');

  /** Unknown places are city_not_found; a town of the table Yandex does not know is Yandex not serving it. */
  function notFound(place: QuoteLocation, detail: string, what: string): CarrierFailure {
    const city = findCity(place.city, place.postalCode);
    return city
      ? { kind: 'no_service', detail: `${what} in ${city.name}` }
      : { kind: 'city_not_found', detail };
  }

  async function geoOf(place: QuoteLocation, signal: AbortSignal): Promise<Found<string>> {
    const r = await resolver.resolve(place, 'terminal_id', { directory: geo, signal });
    if (r.ok) return { ok: true, value: r.value };
    if (r.kind === 'carrier_error')
      return { ok: false, failure: { kind: 'carrier_error', detail: r.detail } };
    return { ok: false, failure: notFound(place, r.detail, 'Yandex does not deliver') };
  }

  async function source(place: QuoteLocation, signal: AbortSignal): Promise<Found<string>> {
    if (ownStation) return { ok: true, value: ownStation };
    const r = await resolver.resolve(place, 'terminal_id', { directory: dropoffPoints, signal });
    if (r.ok) return { ok: true, value: r.value };
    if (r.kind === 'carrier_error')
      return { ok: false, failure: { kind: 'carrier_error', detail: r.detail } };
    return { ok: false, failure: notFound(place, r.detail, 'no Yandex drop-off point') };
  }

  async function pricing(
    sourceStationId: string,
    destination: YandexDestination,
    tariff: YandexTariff,
    request: CarrierQuoteRequest,
    signal: AbortSignal,
  ): Promise<CarrierOutcome> {
    const body = buildPricingRequest({
      sourceStationId,
      destination,
      tariff,
      places: request.places,
      declaredValueKopecks: request.declaredValueKopecks,
      codKopecks: request.codKopecks,
    });
    const response = await api.post('/api/b2b/platform/pricing-calculator', body, signal);
    const reading = readPricing(response.status, response.json, tariff, response.text, request);
    if (reading.unknownCode) {
      logger.warn('Yandex Delivery answered an error code RateDesk does not know', {
        code: reading.unknownCode,
        status: response.status,
        tariff,
      });
    }
    return reading.outcome;
  }

  /** The recipient's pickup point; a failed lookup costs only the self_pickup leg. */
  async function pickupPoint(
    to: QuoteLocation,
    cod: boolean,
    signal: AbortSignal,
  ): Promise<{ id: string | null; failure: string | null }> {
    const directory = cod ? cardPickupPoints : pickupPoints;
    const r = await resolver.resolve(to, 'terminal_id', { directory, signal });
    if (r.ok) return { id: r.value, failure: null };
    return { id: null, failure: r.kind === 'carrier_error' ? r.detail : null };
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [from, toGeo] = await Promise.all([source(request.from, signal), geoOf(request.to, signal)]);
    // An unknown town stops here; a geo lookup that failed does not (the door leg needs no geo_id).
    if (!toGeo.ok && toGeo.failure.kind !== 'carrier_error') return { ok: false, ...toGeo.failure };
    if (!from.ok) return { ok: false, ...from.failure };
    const point = toGeo.ok
      ? await pickupPoint(request.to, request.codKopecks > 0, signal)
      : {
          id: null,
          failure:
            toGeo.failure.kind === 'carrier_error' ? toGeo.failure.detail : 'Yandex location/detect failed',
        };
    if (point.failure !== null)
      logger.warn('Yandex pickup-point lookup failed; the door is still quoted', { detail: point.failure });

    const city = findCity(request.to.city, request.to.postalCode);
    const address = yandexAddress({
      city: city?.name ?? request.to.city.trim(),
      region: city?.region ?? null,
      postalCode: request.to.postalCode,
    });
    const calls: Array<Promise<CarrierOutcome>> = [];
    if (YANDEX_DOOR_BY_TOWN_ADDRESS)
      calls.push(pricing(from.value, { address }, 'time_interval', request, signal));
    if (point.id !== null)
      calls.push(pricing(from.value, { platform_station_id: point.id }, 'self_pickup', request, signal));
    const outcomes = await Promise.all(calls);
    const rates = outcomes.flatMap((o) => (o.ok ? o.rates : []));
    if (rates.length > 0) return { ok: true, rates };
    // Nothing priced: a fault wins over "no service" (the route was not really answered).
    const fault = outcomes.find((o) => !o.ok && o.kind === 'carrier_error');
    if (fault) return fault;
    if (point.failure !== null) return { ok: false, kind: 'carrier_error', detail: point.failure };
    return (
      outcomes[0] ?? {
        ok: false,
        kind: 'no_service',
        detail: `no Yandex pickup point in ${city?.name ?? request.to.city.trim()}`,
      }
    );
  }

  return {
    code: YANDEX_CARRIER_CODE,
    name: YANDEX_CARRIER_NAME,
    limits: YANDEX_LIMITS,
    async quote(request, { signal }) {
      try {
        return await quote(request, signal);
      } catch (err) {
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `Yandex: ${err.message}` };
        }
        throw err;
      }
    },
  };
}
