// Yandex pricing-calculator answers → aggregator rates (verified-2026.md §7.3–7.4).
//
// Price: `pricing_total` "225.7 RUB", VAT included, parsed exactly. Days: `delivery_days`, one number
// ("расчетное количество дней"); whether working or calendar is not stated, so it is shown as given
// (YANDEX_DAYS_AS_GIVEN, docs/carriers.md). "No service" comes as 400 or 404 with `no_delivery_options` or
// "No delivery options" (YA-RES, YA-MD, YA-LAR match both). Yandex's error reference (its page
// other-day/errors, copied in 3p id 54149231025; YA-RES §6.6) adds two more answers that are about the route,
// not a fault: 404 "No dropoff available" (the source station ships nothing: no shipping schedule, no
// balance) and 404 "Dimensions should not exceed limit"; and 400 "Cannot parse destination info" for an
// address it cannot place, «нужен формат Город, улица, дом». All three are no service for that leg: they say
// nothing about Yandex being down, so they must not count towards the circuit breaker (audit Y3, Y8).
import type { CarrierRate, CarrierRateExtras } from '../../contract/quote-ext';
import type { CarrierOutcome } from '../types';
import { parsePricingTotal } from './money';
import type { YandexTariff } from './request';
import { YandexError, YandexPricing, type YandexPricing as Pricing } from './schema';
import { YANDEX } from './descriptor';

export const YANDEX_CARRIER_CODE = YANDEX.code;
export const YANDEX_CARRIER_NAME = YANDEX.name;

/** `delivery_days` is taken as it comes: Yandex does not say working or calendar days. */
export const YANDEX_DAYS_AS_GIVEN = true;

const SERVICES: Readonly<Record<YandexTariff, { name: string; type: 'door' | 'pickup_point' }>> = {
  time_interval: { name: 'Курьером до двери', type: 'door' },
  self_pickup: { name: 'До пункта выдачи', type: 'pickup_point' },
};

/** Error codes whose meaning we know (verified-2026.md §7.4); anything else is logged. */
export const KNOWN_YANDEX_CODES: ReadonlySet<string> = new Set([
  'no_delivery_options',
  'validation_error',
  'unauthorized',
  'not_found',
  'too_many_requests',
  'internal_error',
]);

export interface YandexReading {
  outcome: CarrierOutcome;
  /** An error code we do not know, for the log. */
  unknownCode: string | null;
}

/**
 * A route-specific refusal (400 or 404, by code or text) as the detail a person reads; undefined when the
 * answer is not one.
 */
function noServiceDetail(error: YandexError, tariff: YandexTariff, said: string): string | undefined {
  const message = error.message ?? '';
  if (error.code === 'no_delivery_options' || /no delivery options/i.test(message))
    return said || 'No delivery options';
  if (/no dropoff available/i.test(message))
    return 'Yandex takes no parcels at the source station (No dropoff available: its shipping schedule or balance)';
  if (/dimensions should not exceed limit/i.test(message))
    return "the parcel is over Yandex's dimensions for this route (Dimensions should not exceed limit)";
  if (tariff === 'time_interval' && /cannot parse destination info/i.test(message))
    return 'no door rate: Yandex could not place a town-level address (it asks «город, улица, дом»)';
  return undefined;
}

/** What the request asked for beyond the parcel: the breakdown depends on it. */
export interface YandexAsked {
  declaredValueKopecks: number;
  codKopecks: number;
}

const NOTHING_ASKED: YandexAsked = { declaredValueKopecks: 0, codKopecks: 0 };

/**
 * The fee breakdown. `pricing_total` is the total with every service; with cash on delivery the answer adds
 * the commission for taking the payment (`pricing_commission_on_delivery_payment_amount`) and `pricing`,
 * delivery and insurance together. Yandex never names the insurance apart: with a value declared the base and
 * the insurance are both unknown (inside the total); without one the delivery is the base.
 */
export function extrasOf(pricing: Pricing, total: number, asked: YandexAsked): CarrierRateExtras {
  const read = (text: string | undefined): number | null =>
    text === undefined ? null : (parsePricingTotal(text) ?? null);
  const commission = asked.codKopecks > 0 ? read(pricing.pricing_commission_on_delivery_payment_amount) : 0;
  const delivery =
    read(pricing.pricing) ?? (commission !== null && commission <= total ? total - commission : null);
  const insured = asked.declaredValueKopecks > 0;
  return {
    breakdown: {
      base_kopecks: insured ? null : delivery,
      insurance_kopecks: insured ? null : 0,
      cod_fee_kopecks: commission,
    },
  };
}

/** `bodyText`: the answer as sent, to tell an unreadable error body from an empty one. */
export function readPricing(
  status: number,
  json: unknown,
  tariff: YandexTariff,
  bodyText = '',
  asked: YandexAsked = NOTHING_ASKED,
): YandexReading {
  const done = (outcome: CarrierOutcome, unknownCode: string | null = null): YandexReading => ({
    outcome,
    unknownCode,
  });
  const fail = (detail: string, unknownCode: string | null = null): YandexReading =>
    done({ ok: false, kind: 'carrier_error', detail }, unknownCode);

  if (status >= 200 && status < 300) {
    if (json === undefined) return fail(`Yandex answered HTTP ${status} without valid JSON`);
    const parsed = YandexPricing.safeParse(json);
    if (!parsed.success) return fail(`Yandex answered HTTP ${status} with an unexpected body`);
    const price = parsePricingTotal(parsed.data.pricing_total);
    if (price === undefined) return fail(`Yandex price not readable: "${parsed.data.pricing_total}"`);
    const days = parsed.data.delivery_days ?? null;
    const service = SERVICES[tariff];
    const rate: CarrierRate = {
      carrier: YANDEX_CARRIER_CODE,
      carrier_name: YANDEX_CARRIER_NAME,
      service_code: `${YANDEX_CARRIER_CODE}:${tariff}`,
      service_name: service.name,
      delivery_type: service.type,
      price_kopecks: price,
      currency: 'RUB',
      days_min: days,
      days_max: days,
      price_type: 'public',
      ...extrasOf(parsed.data, price, asked),
    };
    return done({ ok: true, rates: [rate] });
  }

  const parsedError = json === undefined ? undefined : YandexError.safeParse(json);
  const error = parsedError?.success ? parsedError.data : {};
  const said = [error.code, error.message].filter(Boolean).join(': ');
  // A code that only repeats the status ({"code":"400",…}, as Yandex words an enum error, 3p id
  // 57384569655) says nothing new: not one to log.
  const unknown =
    error.code && !KNOWN_YANDEX_CODES.has(error.code) && error.code !== String(status) ? error.code : null;
  const noService = status === 400 || status === 404 ? noServiceDetail(error, tariff, said) : undefined;
  if (noService !== undefined) return done({ ok: false, kind: 'no_service', detail: noService }, unknown);
  if (status === 401 || status === 403) {
    return fail(`Yandex rejected the token (HTTP ${status}${said ? `: ${said}` : ''})`, unknown);
  }
  // An error answer cut short or replaced by a proxy's page: say so, not just its status.
  if (json === undefined && bodyText.trim() !== '')
    return fail(`Yandex HTTP ${status} with a body that is not JSON`);
  return fail(`Yandex HTTP ${status}${said ? `: ${said}` : ''}`, unknown);
}
