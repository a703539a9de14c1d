// One /v2/calculator.json answer → a rate, "date unavailable, ask for the next day", or a failure
// (protocols.md §4.4–4.6, verified-2026 §4.3–4.4).
import type { CarrierRate, CarrierRateExtras } from '../../contract/quote-ext';
import type { DeliveryType, Rate } from '../../contract/v1';
import { roublesToKopecks } from '../money';
import type { CarrierFailure } from '../types';
import { DellinCalculation, DellinErrorBody, type DellinError, type DellinOrderDates } from './schema';
import { DELLIN } from './descriptor';

export const DELLIN_CARRIER_CODE = DELLIN.code;
export const DELLIN_CARRIER_NAME = DELLIN.name;

export type DellinVariant = 'terminal' | 'door';

export type CalcReading =
  | { kind: 'rate'; rate: CarrierRate }
  | { kind: 'date_unavailable'; detail: string; httpStatus: number }
  | {
      kind: 'failure';
      failure: CarrierFailure;
      unknownCodes: number[];
      /** The HTTP status Dellin answered with; null when no answer came (network). */
      httpStatus: number | null;
      /**
       * Dellin itself failed or refused us, whatever the leg asked: no answer, a 5xx, a rate limit, the appkey
       * refused. The adapter lets such a failure of the door leg stop the quote; other refusals of the door
       * leg only mean "no door rate" (audit DL3).
       */
      fault: boolean;
    };

/**
 * Codes of the calculator documented or seen (protocols.md §4.6, DL-ERR's examples): 180002 the address is
 * not found, 180003 no terminal accepts the cargo's dimensions, 180012 the produce date is not available,
 * 130009 a comment too long, 117004 a value not found in a directory, 281016/281017 ordering validation.
 */
const KNOWN_CODES = new Set([180002, 180003, 180012, 130009, 117004, 281016, 281017]);
const DATE_UNAVAILABLE = 180012;
const NO_SERVICE_CODES = new Set([180003]);
const PLACE_CODES = new Set([180002]);

const MAX_DETAIL = 160;
function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
}

function describe(errors: readonly DellinError[]): string {
  return errors
    .map((e) => [e.code, e.title, e.detail].filter((x) => x !== undefined && x !== '').join(' '))
    .join('; ');
}

type Reading = { kind: 'rate'; rate: CarrierRate } | { kind: 'date_unavailable'; detail: string } | Failed;
type Failed = { kind: 'failure'; failure: CarrierFailure; unknownCodes: number[]; appkey?: true };

function failure(f: CarrierFailure, unknownCodes: number[] = []): Failed {
  return { kind: 'failure', failure: f, unknownCodes };
}

/**
 * Statuses that are Dellin's fault or its refusal of the account, not of one leg's data: a 5xx, 401/403 (the
 * appkey; DL-ERR does not say which status a bad appkey gets: audit DL10), 429 (a third-party client reads it
 * as Dellin's rate limit, protocols.md §4.6).
 */
export function isFaultStatus(status: number): boolean {
  return status >= 500 || status === 401 || status === 403 || status === 429;
}

/** What the request asked for beyond the cargo: the fee breakdown and `options_not_priced` depend on it. */
export interface DellinAsked {
  declaredValueKopecks: number;
  codKopecks: number;
}

const NOTHING_ASKED: DellinAsked = { declaredValueKopecks: 0, codKopecks: 0 };

export function readCalculation(
  status: number,
  json: unknown,
  variant: DellinVariant,
  requestDate: string,
  asked: DellinAsked = NOTHING_ASKED,
): CalcReading {
  const reading = read(status, json, variant, requestDate, asked);
  if (reading.kind === 'rate') return reading;
  if (reading.kind === 'date_unavailable') return { ...reading, httpStatus: status };
  const { appkey, ...rest } = reading;
  return { ...rest, httpStatus: status, fault: appkey === true || isFaultStatus(status) };
}

function read(
  status: number,
  json: unknown,
  variant: DellinVariant,
  requestDate: string,
  asked: DellinAsked,
): Reading {
  if (json === undefined)
    return failure({ kind: 'carrier_error', detail: `Dellin answered HTTP ${status} without JSON` });
  const err = DellinErrorBody.safeParse(json);
  if (err.success) return readErrors(status, err.data);
  if (status === 401 || status === 403) {
    return failure({ kind: 'carrier_error', detail: `Dellin rejected the appkey (HTTP ${status})` });
  }
  if (status < 200 || status > 299)
    return failure({ kind: 'carrier_error', detail: `Dellin answered HTTP ${status}` });
  const parsed = DellinCalculation.safeParse(json);
  if (!parsed.success)
    return failure({ kind: 'carrier_error', detail: 'Dellin answered an unexpected body' });
  const { data } = parsed.data;
  if (data.price === null || data.price === undefined) {
    // Contract prices come as price null + contractPrice true: there is no public price to show, never 0.
    const contract = data.intercity?.contractPrice === true || data.derival?.contractPrice === true;
    return failure({
      kind: 'carrier_error',
      detail: contract
        ? 'Dellin gave a contract price only, without a public price'
        : 'Dellin answered without a price',
    });
  }
  const price = roublesToKopecks(data.price);
  if (price === undefined)
    return failure({ kind: 'carrier_error', detail: 'Dellin price could not be read' });
  const [daysMin, daysMax] = daysOf(data.orderDates, variant, requestDate, data.deliveryTerm);
  const insurance =
    data.insurance === undefined || data.insurance === null ? undefined : roublesToKopecks(data.insurance);
  return {
    kind: 'rate',
    rate: { ...toRate(variant, price, daysMin, daysMax), ...extrasOf(price, insurance, asked) },
  };
}

/**
 * Dellin's cash on delivery (наложенный платёж) is a service of its order request (`cashOnDelivery` with the
 * goods, xylocode `DelLin/LTL/Req/CashOnDelivery.cs`); the calculator takes no such field (`Calc1/Req`), so its
 * price never includes the fee: said, never silently left out.
 */
export const DELLIN_COD_NOT_QUOTED =
  "Dellin's calculator does not price cash on delivery; Dellin charges it when the order is placed";

/**
 * The fee breakdown: `data.price` is the total of the legs, `data.insurance` («общая стоимость страхования
 * груза»), packages and notifications (xylocode `Calc1/Res/CalculationResponse.cs` on `price`), so the base is
 * the total less the insurance. An answer without `insurance` when a value was declared leaves both parts
 * unknown (inside the total).
 */
export function extrasOf(
  price: number,
  insurance: number | undefined,
  asked: DellinAsked,
): CarrierRateExtras {
  const insured = asked.declaredValueKopecks > 0;
  const insuranceKopecks = insurance ?? (insured ? null : 0);
  return {
    breakdown: {
      base_kopecks: insuranceKopecks === null || insuranceKopecks > price ? null : price - insuranceKopecks,
      insurance_kopecks: insuranceKopecks,
      cod_fee_kopecks: asked.codKopecks > 0 ? null : 0,
    },
    ...(asked.codKopecks > 0
      ? { options_not_priced: [{ option: 'cod', reason: 'not_quoted', detail: DELLIN_COD_NOT_QUOTED }] }
      : {}),
  };
}

function readErrors(status: number, body: ReturnType<typeof DellinErrorBody.parse>): Reading {
  if ('error' in body && !('errors' in body)) {
    const text = body.error.description ?? body.error.title ?? 'error';
    return failure({ kind: 'carrier_error', detail: short(`Dellin error: ${text}`) });
  }
  const errors = (body as { errors: unknown }).errors;
  if (typeof errors === 'string')
    return failure({ kind: 'carrier_error', detail: short(`Dellin error: ${errors}`) });
  const list = errors as DellinError[];
  const codes = list.flatMap((e) => (e.code === undefined ? [] : [e.code]));
  const unknownCodes = [...new Set(codes.filter((c) => !KNOWN_CODES.has(c)))];
  const said = short(describe(list));
  if (codes.includes(DATE_UNAVAILABLE)) return { kind: 'date_unavailable', detail: said };
  // The appkey's own error code and status are not published (audit DL10): 401/403, or any error that names
  // the `appkey` field (DL-ERR's `fields`), is the account refused, never a leg's data.
  if (status === 401 || status === 403 || list.some((e) => e.fields?.includes('appkey'))) {
    return {
      ...failure(
        { kind: 'carrier_error', detail: short(`Dellin rejected the appkey: ${said}`) },
        unknownCodes,
      ),
      appkey: true,
    };
  }
  if (codes.length > 0 && codes.every((c) => NO_SERVICE_CODES.has(c))) {
    return failure({ kind: 'no_service', detail: said }, unknownCodes);
  }
  if (codes.length > 0 && codes.every((c) => PLACE_CODES.has(c))) {
    return failure({ kind: 'city_not_found', detail: short(`Dellin: ${said}`) }, unknownCodes);
  }
  return failure({ kind: 'carrier_error', detail: short(`Dellin error ${said}`) }, unknownCodes);
}

/** Calendar days from the request date to the date part of a Dellin date ("2026-11-30 12:00:00"). */
export function calendarDaysBetween(from: string, to: string): number | null {
  const a = Date.parse(`${from.slice(0, 10)}T00:00:00Z`);
  const b = Date.parse(`${to.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return null;
  return Math.round((b - a) / 86_400_000);
}

/** A date Dellin spells two ways (see DellinOrderDates): whichever came. */
function either(a: string | null | undefined, b: string | null | undefined): string | undefined {
  return a ?? b ?? undefined;
}

/** "YYYY-MM-DD" `days` after the date part of a Dellin date. */
function plusDays(date: string, days: number): string | null {
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) return null;
  return new Date(t + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The answer has dates, no day count (protocols.md §4.4): days = calendar days from the request date to the
 * day the recipient can collect at the terminal (giveoutFromOspReceiver … giveoutFromOspReceiverMax, else the
 * arrival at the receiving terminal), or the day the cargo reaches the address. For the address Dellin names
 * that day only for avia and express (derivalToAddress … derivalToAddressMax, audit DL9); for auto it is the
 * arrival at the receiving terminal plus `deliveryTerm`, «срок доставки груза от терминала получения до
 * адреса (в днях)» (xylocode `Calc1/Res/CalculationResponse.cs`), else the day the cargo leaves the receiving
 * terminal for the address (derivalFromOspReceiver, either spelling).
 */
export function daysOf(
  dates: DellinOrderDates | undefined,
  variant: DellinVariant,
  requestDate: string,
  deliveryTerm?: number | null,
): [number | null, number | null] {
  if (!dates) return [null, null];
  const leavesReceiver = either(dates.derivalFromOspReceiver, dates.derrivalFromOspReceiver);
  let first: string | null | undefined;
  let last: string | null | undefined;
  if (variant === 'terminal') {
    first = dates.giveoutFromOspReceiver ?? dates.arrivalToOspReceiver ?? leavesReceiver;
    last = dates.giveoutFromOspReceiverMax;
  } else {
    const byTerm =
      dates.arrivalToOspReceiver && deliveryTerm !== undefined && deliveryTerm !== null
        ? plusDays(dates.arrivalToOspReceiver, deliveryTerm)
        : null;
    first = either(dates.derivalToAddress, dates.derrivalToAddress) ?? byTerm ?? leavesReceiver;
    last = either(dates.derivalToAddressMax, dates.derrivalToAddressMax);
  }
  const min = first ? calendarDaysBetween(requestDate, first) : null;
  const max = last ? calendarDaysBetween(requestDate, last) : null;
  if (min === null) return [max, max];
  if (max === null || max < min) return [min, min];
  return [min, max];
}

const NAMES: Record<DellinVariant, string> = {
  terminal: 'Автоперевозка, терминал — терминал',
  door: 'Автоперевозка, терминал — до двери',
};
const TYPES: Record<DellinVariant, DeliveryType> = { terminal: 'terminal', door: 'door' };

function toRate(variant: DellinVariant, price: number, daysMin: number | null, daysMax: number | null): Rate {
  return {
    carrier: DELLIN_CARRIER_CODE,
    carrier_name: DELLIN_CARRIER_NAME,
    // Dellin's own delivery type ("auto") and the arrival variant it was priced for.
    service_code: `${DELLIN_CARRIER_CODE}:auto:${variant}`,
    service_name: NAMES[variant],
    delivery_type: TYPES[variant],
    price_kopecks: price,
    currency: 'RUB',
    days_min: daysMin,
    days_max: daysMax,
    price_type: 'public',
  };
}
