// One tariff.pochta.ru answer → a rate, "no service" or an error; then the answers for all objects → the
// adapter's outcome (protocols.md §1.8).
import type { CarrierRate } from '../../contract/quote-ext';
import type { Rate } from '../../contract/v1';
import type { CarrierHttpResponse } from '../http';
import type { CarrierOutcome } from '../types';
import { findObject, nameOf } from './objects';
import { isKnownCode, isNoServiceCode, TariffErrorBody, TariffResponse, type TariffError } from './schema';
import { RUSSIAN_POST } from './descriptor';

export const RUSSIAN_POST_CODE = RUSSIAN_POST.code;
export const RUSSIAN_POST_NAME = RUSSIAN_POST.name;

export type ObjectResult =
  | { kind: 'rate'; rate: CarrierRate }
  | { kind: 'no_service'; detail: string }
  | { kind: 'error'; detail: string };

const MAX_DETAIL = 160;

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DETAIL ? `${flat.slice(0, MAX_DETAIL - 1)}…` : flat;
}

function describe(errors: readonly TariffError[]): string {
  return short(errors.map((e) => (e.msg ? `${e.code} ${e.msg}` : String(e.code))).join('; '));
}

/** Which options an object carries: its declared value (с ОЦ) and its cash on delivery (с ОЦ и НП). */
export interface ObjectVariant {
  withDeclaredValue: boolean;
  withCod: boolean;
}

/** Both the HTTP status and `errors[]` are checked: with errorcode=0 a failure still comes with 200. */
export function interpretTariffResponse(
  objectCode: number,
  response: CarrierHttpResponse,
  variant?: ObjectVariant,
): ObjectResult {
  const { status, json } = response;
  if (json === undefined) {
    return { kind: 'error', detail: `Russian Post answered HTTP ${status} with a body that is not JSON` };
  }
  const failed = TariffErrorBody.safeParse(json);
  if (failed.success) {
    const errors = failed.data.errors;
    return errors.every((e) => isNoServiceCode(e.code))
      ? { kind: 'no_service', detail: describe(errors) }
      : { kind: 'error', detail: short(`Russian Post error ${describe(errors)}`) };
  }
  if (status < 200 || status > 299) return { kind: 'error', detail: `Russian Post answered HTTP ${status}` };
  const parsed = TariffResponse.safeParse(json);
  if (!parsed.success)
    return { kind: 'error', detail: 'Russian Post sent a response of an unexpected shape' };
  return { kind: 'rate', rate: toRate(objectCode, parsed.data, variant) };
}

/**
 * The price's parts as the answer gives them, with VAT like `paynds`: carriage (`ground`), the declared-value
 * fee (`cover`; 0 for an object without declared value). `paynds` also holds extra services (`service`), which
 * RateDesk never orders. The COD fee is not in the calculator's answer: null for a "с ОЦ и НП" object.
 */
function breakdownOf(body: TariffResponse, variant: ObjectVariant | undefined): CarrierRate['breakdown'] {
  return {
    base_kopecks: body.ground?.valnds ?? null,
    insurance_kopecks: variant?.withDeclaredValue ? (body.cover?.valnds ?? null) : variant ? 0 : null,
    cod_fee_kopecks: variant?.withCod ? null : variant ? 0 : null,
  };
}

export function toRate(objectCode: number, body: TariffResponse, variant?: ObjectVariant): CarrierRate {
  const known = findObject(objectCode);
  const fallbackName = known ? nameOf(known) : `Почта России ${objectCode}`;
  const own = variant ?? known;
  return {
    carrier: RUSSIAN_POST_CODE,
    carrier_name: RUSSIAN_POST_NAME,
    service_code: `${RUSSIAN_POST_CODE}:${objectCode}`,
    service_name: body.name?.trim() || fallbackName,
    delivery_type: known?.object.deliveryType ?? 'unknown',
    price_kopecks: body.paynds,
    currency: 'RUB',
    ...days(body.delivery),
    price_type: 'public',
    breakdown: breakdownOf(body, own),
  };
}

/** Both bounds when both came; one alone stands for both; neither → unknown (the price is kept). */
function days(delivery: TariffResponse['delivery']): Pick<Rate, 'days_min' | 'days_max'> {
  const min = delivery?.min ?? delivery?.max ?? null;
  const max = delivery?.max ?? delivery?.min ?? null;
  if (min !== null && max !== null && min > max) return { days_min: max, days_max: min };
  return { days_min: min, days_max: max };
}

/** Codes of an answer that ErrorCode.cs does not list, for the adapter's log. */
export function unknownCodesOf(response: CarrierHttpResponse): number[] {
  const failed = TariffErrorBody.safeParse(response.json);
  return failed.success ? failed.data.errors.map((e) => e.code).filter((c) => !isKnownCode(c)) : [];
}

/**
 * Any rate makes the quote a success (the other objects simply are not offered). Without a rate, the
 * carrier has no service only if every object said so; one real error means we cannot tell.
 */
export function combineResults(results: readonly ObjectResult[]): CarrierOutcome {
  const rates = results.flatMap((r) => (r.kind === 'rate' ? [r.rate] : []));
  if (rates.length > 0) return { ok: true, rates };
  const error = results.find((r) => r.kind === 'error');
  if (error) return { ok: false, kind: 'carrier_error', detail: error.detail };
  const details = [...new Set(results.flatMap((r) => (r.kind === 'no_service' ? [r.detail] : [])))];
  return details.length > 0
    ? { ok: false, kind: 'no_service', detail: short(details.join('; ')) }
    : { ok: false, kind: 'no_service' };
}
