// PEK adapter (verified-2026.md §5, the current calculator with `types`): both places → PEK warehouse GUIDs
// (findzonebyaddress, cached) → calculateprice twice, to PEK's receiving terminal and to the door → rates.
// The shipper brings the cargo to PEK's sending terminal. Speaks the live protocol unchanged, so the same code
// runs against kabinet.pecom.ru, the test cabinet and the local simulator.
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
import { askFor, basicAuthorization, createPekApi } from './api';
import { PEK_LIMITS } from './limits';
import { pekAddress, pekWarehouseDirectory } from './locations';
import { PEK_CARRIER_CODE, PEK_CARRIER_NAME, readCalculate, type PekLeg } from './mapper';
import { DEFAULT_PEK_TYPES } from './products';
import { PekRateLimited, pekLimiterFor, type RateLimiter } from './rate-limit';
import {
  buildCalculateRequest,
  PEK_STREETLESS_DOOR,
  type PekDestination,
  type PekStreetlessDoor,
} from './request';

export interface PekAdapterOptions {
  /** API base, e.g. https://kabinet.pecom.ru/api/v1 (a trailing slash is fine). */
  baseUrl: string;
  /** Cabinet login (Basic auth user) and API key (password). */
  login: string | null;
  apiKey: string | null;
  /** Products (`types`), setting carriers.pek.types; LTL Авто by default. */
  types?: readonly number[];
  now?: () => Date;
  locations?: LocationResolver;
  logger?: Logger;
  /** The account's request limiter; the process-wide one per host and login when not given (tests inject). */
  limiter?: RateLimiter;
  /** The door leg without a street (RateDesk has none): PEK_STREETLESS_DOOR by default. */
  streetlessDoor?: PekStreetlessDoor;
}

type Located = { ok: true; warehouseId: string; address: string } | { ok: false; failure: CarrierFailure };

export function createPekAdapter(options: PekAdapterOptions): CarrierAdapter {
  const login = options.login?.trim() ?? '';
  const apiKey = options.apiKey?.trim() ?? '';
  if (login === '' || apiKey === '') {
    const detail = `PEK ${login === '' ? 'login' : 'API key'} is not set`;
    return {
      code: PEK_CARRIER_CODE,
      name: PEK_CARRIER_NAME,
      limits: PEK_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail }),
    };
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const types = options.types?.length ? [...options.types] : [...DEFAULT_PEK_TYPES];
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? silentLogger;
  const resolver = options.locations ?? createLocationResolver();
  const limiter = options.limiter ?? pekLimiterFor(new URL(baseUrl).origin, login);
  const streetlessDoor = options.streetlessDoor ?? PEK_STREETLESS_DOOR;
  const api = createPekApi(baseUrl, basicAuthorization(login, apiKey), limiter);
  // Warehouse ids belong to a host: the simulator's must never answer for kabinet.pecom.ru.
  const directory = pekWarehouseDirectory(api, `pek ${baseUrl}`);

  async function locate(place: QuoteLocation, signal: AbortSignal): Promise<Located> {
    const r = await resolver.resolve(place, 'terminal_id', { directory, signal });
    const city = r.ok ? r.city : findCity(place.city, place.postalCode);
    const address = pekAddress({
      city: city?.name ?? place.city.trim(),
      region: city?.region ?? null,
      postalCode: place.postalCode,
    });
    if (r.ok) return { ok: true, warehouseId: r.value, address };
    if (r.kind === 'carrier_error')
      return { ok: false, failure: { kind: 'carrier_error', detail: r.detail } };
    // A town the table knows but PEK's zones do not cover is PEK not serving it, not an unknown place.
    if (city)
      return { ok: false, failure: { kind: 'no_service', detail: `PEK does not serve ${city.name}` } };
    return { ok: false, failure: { kind: 'city_not_found', detail: r.detail } };
  }

  async function calculate(
    senderWarehouseId: string,
    to: PekDestination,
    leg: PekLeg,
    request: CarrierQuoteRequest,
    signal: AbortSignal,
  ): Promise<CarrierOutcome> {
    const body = buildCalculateRequest({
      types,
      senderWarehouseId,
      to,
      places: request.places,
      declaredValueKopecks: request.declaredValueKopecks,
      now: now(),
    });
    const response = await api.post('/calculator/calculateprice/', body, signal);
    const reading = readCalculate(response.status, response.json, leg, request);
    if (reading.unclassified) {
      // PEK publishes no error codes: an error form we do not classify is how we learn what it says.
      logger.warn('PEK answered an error RateDesk does not classify', {
        said: reading.unclassified,
        status: response.status,
        leg,
      });
    }
    return reading.outcome;
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [from, to] = await Promise.all([locate(request.from, signal), locate(request.to, signal)]);
    if (!from.ok) return { ok: false, ...from.failure };
    if (!to.ok) return { ok: false, ...to.failure };
    const [terminal, door] = await Promise.all([
      calculate(from.warehouseId, { warehouseId: to.warehouseId }, 'terminal', request, signal),
      streetlessDoor === 'town'
        ? calculate(from.warehouseId, { address: to.address }, 'door', request, signal)
        : null,
    ]);
    const rates = [...(terminal.ok ? terminal.rates : []), ...(door?.ok ? door.rates : [])];
    if (rates.length > 0) {
      const failed = [terminal, door].find(
        (o): o is Extract<CarrierOutcome, { ok: false }> => o?.ok === false,
      );
      // One leg without a rate is invisible in the answer; the log says why (a refused door address, say).
      if (failed) {
        logger.info('PEK answered one leg without a rate', {
          kind: failed.kind,
          detail: 'detail' in failed ? failed.detail : undefined,
        });
      }
      return { ok: true, rates };
    }
    // Neither leg has a rate: a fault wins over "no service" (the route was not really answered).
    if (!terminal.ok && terminal.kind === 'carrier_error') return terminal;
    if (door && !door.ok && door.kind === 'carrier_error') return door;
    return terminal;
  }

  return {
    code: PEK_CARRIER_CODE,
    name: PEK_CARRIER_NAME,
    limits: PEK_LIMITS,
    async quote(request, { signal, account }) {
      askFor(signal, account ?? '');
      try {
        return await quote(request, signal);
      } catch (err) {
        // Carrier faults become outcomes; an abort (timeout/deadline) and our own bugs propagate.
        if (err instanceof CarrierHttpError && !signal.aborted) {
          return { ok: false, kind: 'carrier_error', detail: `PEK: ${err.message}` };
        }
        // PEK's minute is the install's: a call it did not allow is not PEK failing (no breaker, no health).
        if (err instanceof PekRateLimited && !signal.aborted) {
          return { ok: false, kind: 'carrier_busy', detail: err.message };
        }
        throw err;
      }
    },
  };
}
