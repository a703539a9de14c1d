// CDEK tarifflist answers → aggregator rates (protocols.md §2.9).
//
// Days: calendar_min/max when CDEK sends both, else period_min/max. period_* are *working* days while
// Russian Post (and what a buyer reads as "доставка за N дней") counts calendar days; preferring calendar
// days keeps carriers comparable on one scale. Working days are only a fallback for tariffs that lack
// calendar_* (older responses, some tariffs), where they understate the wait by about a weekend per week.
//
// Price: delivery_sum is the delivery price in roubles with decimals, converted decimally to kopecks.
// tarifflist takes no declared value (insurance is a service of /calculator/tariff only), so CDEK prices
// exclude insurance.
import type { CarrierRate } from '../../contract/quote-ext';
import { roublesToKopecks } from '../money';
import type { CarrierOutcome } from '../types';
import { classifyCdekErrors, describeErrors, isKnownCode } from './errors';
import { CdekTariffItem, CdekTariffListEnvelope } from './schema';
import { deliveryTypeForMode } from './tariffs';
import { CDEK } from './descriptor';

export const CDEK_CARRIER_CODE = CDEK.code;
export const CDEK_CARRIER_NAME = CDEK.name;

/** One tariff item → a Rate, or null when the item is unusable (bad shape, unparseable price). */
export function mapTariffItem(raw: unknown): CarrierRate | null {
  const parsed = CdekTariffItem.safeParse(raw);
  if (!parsed.success) return null;
  const item = parsed.data;
  const price = roublesToKopecks(item.delivery_sum);
  if (price === undefined) return null;
  const [daysMin, daysMax] = pickDays(item);
  return {
    carrier: CDEK_CARRIER_CODE,
    carrier_name: CDEK_CARRIER_NAME,
    service_code: `${CDEK_CARRIER_CODE}:${item.tariff_code}`,
    service_name: item.tariff_name,
    delivery_type: deliveryTypeForMode(item.delivery_mode),
    price_kopecks: price,
    currency: 'RUB',
    days_min: daysMin,
    days_max: daysMax,
    price_type: 'public',
    // CDEK's calendar_* is the carrier's declared kind; period_* are working days, and the delivery dates must
    // then be counted over the production calendar (#21).
    ...(daysFromPeriod(item) ? { days_kind: 'working' as const } : {}),
  };
}

/** True when pickDays had to take CDEK's working-day period_* (no calendar_* to take). */
export function daysFromPeriod(
  item: Pick<CdekTariffItem, 'calendar_min' | 'calendar_max' | 'period_min' | 'period_max'>,
): boolean {
  if (item.calendar_min !== undefined && item.calendar_max !== undefined) return false;
  if (item.period_min !== undefined && item.period_max !== undefined) return true;
  return (
    item.calendar_min === undefined &&
    item.calendar_max === undefined &&
    (item.period_min ?? item.period_max) !== undefined
  );
}

/** Pairs are taken whole: mixing a calendar minimum with a working-day maximum would mean nothing. */
export function pickDays(
  item: Pick<CdekTariffItem, 'calendar_min' | 'calendar_max' | 'period_min' | 'period_max'>,
): [number | null, number | null] {
  if (item.calendar_min !== undefined && item.calendar_max !== undefined)
    return ordered(item.calendar_min, item.calendar_max);
  if (item.period_min !== undefined && item.period_max !== undefined)
    return ordered(item.period_min, item.period_max);
  const single = item.calendar_min ?? item.calendar_max ?? item.period_min ?? item.period_max ?? null;
  return [single, single];
}

function ordered(a: number, b: number): [number, number] {
  return a <= b ? [a, b] : [b, a];
}

/** What one tarifflist answer means, with what the adapter needs beyond the outcome. */
export interface TariffListReading {
  outcome: CarrierOutcome;
  /** No tariff under this contract type (an empty list or the "no tariff" codes): the other type may have one. */
  noTariff: boolean;
  /** Error codes no table of errors.ts names, for the log. */
  unknownCodes: string[];
}

/**
 * The whole HTTP answer of /calculator/tarifflist (other than 401, which the adapter retries) → outcome.
 * Usable tariffs in a 2xx answer win over accompanying `errors[]`; without tariffs the errors decide.
 */
export function mapTariffListResponse(status: number, json: unknown): CarrierOutcome {
  return readTariffList(status, json).outcome;
}

export function readTariffList(status: number, json: unknown): TariffListReading {
  const envelope = json === undefined ? undefined : CdekTariffListEnvelope.safeParse(json);
  const errors = envelope?.success ? envelope.data.errors : [];
  const unknownCodes = [...new Set(errors.map((e) => e.code).filter((c) => !isKnownCode(c)))];
  const ok2xx = status >= 200 && status < 300;
  const done = (outcome: CarrierOutcome, noTariff = false): TariffListReading => ({
    outcome,
    noTariff,
    unknownCodes,
  });

  if (status >= 500) {
    const suffix = errors.length ? `: ${describeErrors(errors)}` : '';
    return done({ ok: false, kind: 'carrier_error', detail: `CDEK HTTP ${status}${suffix}` });
  }
  if (json === undefined) {
    return done({
      ok: false,
      kind: 'carrier_error',
      detail: `CDEK answered HTTP ${status} without valid JSON`,
    });
  }
  if (!envelope?.success) {
    return done({
      ok: false,
      kind: 'carrier_error',
      detail: `CDEK answered HTTP ${status} with an unexpected body`,
    });
  }

  const items = envelope.data.tariff_codes;
  const rates = ok2xx && items ? items.map(mapTariffItem).filter((r): r is CarrierRate => r !== null) : [];
  if (rates.length > 0) return done({ ok: true, rates });
  if (errors.length > 0) {
    const { failure, noTariff } = classifyCdekErrors(errors);
    return done({ ok: false, ...failure }, noTariff);
  }
  if (!ok2xx) return done({ ok: false, kind: 'carrier_error', detail: `CDEK HTTP ${status}` });
  if (items === undefined) {
    return done({ ok: false, kind: 'carrier_error', detail: 'CDEK answered without tariff_codes' });
  }
  if (items.length === 0) {
    return done({ ok: false, kind: 'no_service', detail: 'no CDEK tariff for this route and parcel' }, true);
  }
  return done({
    ok: false,
    kind: 'carrier_error',
    detail: `none of the ${items.length} CDEK tariffs could be read`,
  });
}
