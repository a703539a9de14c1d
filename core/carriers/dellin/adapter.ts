// Деловые Линии adapter: the full calculator, POST /v2/calculator.json (protocols.md §4.4, verified-2026 §4),
// auto freight from the sender's terminal to an address in the recipient's city, then to the recipient's
// terminal. Speaks the live protocol unchanged: api.dellin.ru or the local simulator.
import { createLocationResolver, type LocationResolver, type Resolution } from '../../locations/resolver';
import { silentLogger, type Logger } from '../../util/logger';
import { CarrierHttpError, carrierRequest } from '../http';
import type { CarrierAdapter, CarrierFailure, CarrierOutcome, CarrierQuoteRequest } from '../types';
import { DELLIN_LIMITS } from './limits';
import { dellinTerminalDirectory } from './locations';
import {
  DELLIN_CARRIER_CODE,
  DELLIN_CARRIER_NAME,
  readCalculation,
  type CalcReading,
  type DellinAsked,
  type DellinVariant,
} from './mapper';
import {
  buildCalculatorRequest,
  DELLIN_STREETLESS_DOOR,
  kladr25,
  moscowDate,
  nextDay,
  townSearch,
  type DellinArrival,
  type DellinStreetlessDoor,
} from './request';

export const CALCULATOR_PATH = '/v2/calculator.json';

export interface DellinAdapterOptions {
  /** https://api.dellin.ru or the simulator's URL. */
  baseUrl: string;
  /** The developer's API key (setting carriers.dellin.appkey): the whole account, no id. */
  appkey: string | null;
  /** The service clock: produceDate is its date in Moscow, and days count from it. */
  now?: () => Date;
  locations?: LocationResolver;
  logger?: Logger;
  /** What the door leg sends without a street (RateDesk has none): DELLIN_STREETLESS_DOOR by default. */
  streetlessDoor?: DellinStreetlessDoor;
}

export function createDellinAdapter(options: DellinAdapterOptions): CarrierAdapter {
  const appkey = options.appkey?.trim() ?? '';
  if (appkey === '') {
    return {
      code: DELLIN_CARRIER_CODE,
      name: DELLIN_CARRIER_NAME,
      limits: DELLIN_LIMITS,
      quote: async () => ({ ok: false, kind: 'not_configured', detail: 'Dellin appkey is not set' }),
    };
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const resolver = options.locations ?? createLocationResolver();
  const logger = options.logger ?? silentLogger;
  const streetlessDoor = options.streetlessDoor ?? DELLIN_STREETLESS_DOOR;
  const derivalTerminals = dellinTerminalDirectory(baseUrl, appkey, 'derival');
  const arrivalTerminals = dellinTerminalDirectory(baseUrl, appkey, 'arrival');

  async function calculate(
    variant: DellinVariant,
    body: (produceDate: string) => Record<string, unknown>,
    asked: DellinAsked,
    signal: AbortSignal,
  ): Promise<CalcReading> {
    // Days count from the request date (the service clock's, in Moscow), whatever date Dellin takes the cargo.
    const requestDate = moscowDate(now());
    let produceDate = requestDate;
    // 180012: the sending terminal takes no cargo on that date (a holiday, the day's cut-off passed); Dellin's
    // advice is the next day (protocols.md §4.4). Once: a second refusal is the answer.
    for (let attempt = 0; ; attempt++) {
      const reading = await post(variant, body(produceDate), requestDate, asked, signal);
      if (reading.kind !== 'date_unavailable') return reading;
      if (attempt === 1) {
        return {
          kind: 'failure',
          failure: { kind: 'no_service', detail: reading.detail },
          unknownCodes: [],
          httpStatus: reading.httpStatus,
          fault: false,
        };
      }
      produceDate = nextDay(produceDate);
    }
  }

  async function post(
    variant: DellinVariant,
    body: Record<string, unknown>,
    requestDate: string,
    asked: DellinAsked,
    signal: AbortSignal,
  ): Promise<CalcReading> {
    try {
      const res = await carrierRequest(`${baseUrl}${CALCULATOR_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      const reading = readCalculation(res.status, res.json, variant, requestDate, asked);
      if (reading.kind === 'failure' && reading.unknownCodes.length > 0) {
        // Dellin's code list is long and partly unpublished; an unknown one is how we learn what it means.
        logger.warn('Dellin answered an error code RateDesk does not know', {
          codes: reading.unknownCodes,
          status: res.status,
          outcome: reading.failure.kind,
        });
      }
      return reading;
    } catch (err) {
      if (err instanceof CarrierHttpError && !signal.aborted) {
        return {
          kind: 'failure',
          failure: { kind: 'carrier_error', detail: `Dellin: ${err.message}` },
          unknownCodes: [],
          httpStatus: null,
          fault: true,
        };
      }
      throw err;
    }
  }

  async function quote(request: CarrierQuoteRequest, signal: AbortSignal): Promise<CarrierOutcome> {
    const [fromKladr, toKladr] = await Promise.all([
      resolver.resolve(request.from, 'kladr_id', { signal }),
      resolver.resolve(request.to, 'kladr_id', { signal }),
    ]);
    // Dellin keys every place on KLADR; a town the table does not know cannot be asked about.
    if (!fromKladr.ok) return { ok: false, ...placeFailure(fromKladr, request.from.city) };
    if (!toKladr.ok) return { ok: false, ...placeFailure(toKladr, request.to.city) };

    const [fromTerminal, toTerminal] = await Promise.all([
      resolver.resolve(request.from, 'terminal_id', { directory: derivalTerminals, signal }),
      resolver.resolve(request.to, 'terminal_id', { directory: arrivalTerminals, signal }),
    ]);
    if (!fromTerminal.ok) {
      if (fromTerminal.kind === 'carrier_error')
        return { ok: false, kind: 'carrier_error', detail: fromTerminal.detail };
      return { ok: false, kind: 'no_service', detail: `no Dellin terminal sends from ${request.from.city}` };
    }
    if (!toTerminal.ok && toTerminal.kind === 'carrier_error') {
      return { ok: false, kind: 'carrier_error', detail: toTerminal.detail };
    }

    const derivalCityKladr = kladr25(fromKladr.value);
    const calc = (variant: DellinVariant, arrival: DellinArrival): Promise<CalcReading> =>
      calculate(
        variant,
        (produceDate) =>
          buildCalculatorRequest({
            appkey,
            derivalTerminalId: fromTerminal.value,
            derivalCityKladr,
            arrival,
            produceDate,
            places: request.places,
            declaredValueKopecks: request.declaredValueKopecks,
          }),
        request,
        signal,
      );
    // Both legs at once: asked one after the other they cost two of Dellin's round trips per quote (the
    // eight-carrier fan-out measured 44 ms at a 20 ms simulator). The door leg searches the town (never `city`
    // with the address variant, which DL-CALC forbids: audit DL3), unless DELLIN_STREETLESS_DOOR says not to.
    const search =
      streetlessDoor === 'town_search'
        ? townSearch({
            city: toKladr.city?.name ?? request.to.city.trim(),
            region: toKladr.city?.region ?? null,
            postalCode: request.to.postalCode?.trim() || null,
          })
        : null;
    const doorLeg = search === null ? null : calc('door', { variant: 'address', search });
    // No receiving terminal in the town: delivery to the address is all there is.
    const terminalLeg = toTerminal.ok
      ? calc('terminal', { variant: 'terminal', terminalId: toTerminal.value })
      : null;
    if (!doorLeg && !terminalLeg) {
      return {
        ok: false,
        kind: 'no_service',
        detail: `no Dellin terminal in ${toKladr.city?.name ?? request.to.city.trim()}, and no door leg without a street`,
      };
    }
    const [door, terminal] = await Promise.all([doorLeg, terminalLeg]);
    if (door?.kind === 'failure') {
      // Dellin down, the appkey refused, or no terminal taking the cargo (the same sending terminal and cargo
      // are in both legs): that is the answer, whatever the terminal leg said.
      if (stopsTheQuote(door)) return { ok: false, ...door.failure };
      if (terminal?.kind === 'rate') {
        logger.info('Dellin gave no door rate; the terminal rate stands', {
          search,
          status: door.httpStatus,
          said: failureText(door.failure),
        });
      }
    }
    const readings = [terminal, door === null ? null : asDoorReading(door, search)].filter(
      (r): r is CalcReading => r !== null,
    );
    return combine(readings);
  }

  return {
    code: DELLIN_CARRIER_CODE,
    name: DELLIN_CARRIER_NAME,
    limits: DELLIN_LIMITS,
    quote: (request, { signal }) => quote(request, signal),
  };
}

/**
 * A failed door leg stops the whole quote only when Dellin is at fault (no answer, a 5xx, 429, the appkey
 * refused) or says no terminal takes the cargo (180003, or a produce date refused twice: `no_service`), which
 * holds for both legs. Any other 4xx on the door leg (180002, a validation code, an unknown code) is Dellin
 * refusing the street-less address we sent: no door rate, and the terminal rate stays (audit DL3, DL4).
 */
export function stopsTheQuote(door: Extract<CalcReading, { kind: 'failure' }>): boolean {
  return door.failure.kind === 'no_service' || door.fault;
}

/** A door leg Dellin refused with a 4xx reads "no door rate": no service to that address, not a fault. */
function asDoorReading(door: CalcReading, search: string | null): CalcReading {
  if (door.kind !== 'failure' || door.fault || door.httpStatus === null || door.httpStatus < 400) return door;
  return {
    ...door,
    failure: {
      kind: 'no_service',
      detail: `no Dellin door rate for «${search ?? ''}»: ${failureText(door.failure)}`,
    },
  };
}

function failureText(failure: CarrierFailure): string {
  return 'detail' in failure && failure.detail ? failure.detail : failure.kind;
}

function placeFailure(resolution: Exclude<Resolution, { ok: true }>, typed: string): CarrierFailure {
  if (resolution.kind === 'carrier_error') return { kind: 'carrier_error', detail: resolution.detail };
  return { kind: 'city_not_found', detail: typed.trim() || '(no city)' };
}

/** Any rate wins; else the first failure other than "no service"; else no service. */
export function combine(readings: readonly CalcReading[]): CarrierOutcome {
  const rates = readings.flatMap((r) => (r.kind === 'rate' ? [r.rate] : []));
  if (rates.length > 0) return { ok: true, rates };
  const failures = readings.flatMap((r) => (r.kind === 'failure' ? [r.failure] : []));
  const real = failures.find((f) => f.kind !== 'no_service');
  if (real) return { ok: false, ...real };
  return failures[0] ? { ok: false, ...failures[0] } : { ok: false, kind: 'no_service' };
}
