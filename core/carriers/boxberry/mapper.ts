// Boxberry DeliveryCalculation answers → aggregator rates (protocols.md §3.4, verified-2026 §3).
//
// No service: Boxberry has no code for it. The official plugin treats a missing entry for the requested
// delivery type, or PriceBase 0, as "no rate" (BB-OFF/BB-ART `get_received`): so does this mapper.
// Money: TotalPrice (base + services) in roubles with up to 3 decimals, converted decimally; VAT is not
// stated by any source, so the price is taken as what the shipper pays.
// Days: DeliveryPeriod is one number whose unit the sources dispute (gwinn: calendar days; the official
// plugin shows it as "рабочих дней"). DELIVERY_PERIOD_IS_WORKING_DAYS states the choice made.
import type { CarrierRate } from '../../contract/quote-ext';
import type { DeliveryType } from '../../contract/v1';
import { roublesToKopecks } from '../money';
import type { CarrierFailure } from '../types';
import { boxberryErrorText, classifyBoxberryError } from './errors';
import type { BoxberryDeliveryType } from './request';
import { BoxberryCalculation, BoxberryDeliveryCost } from './schema';
import { BOXBERRY } from './descriptor';

export const BOXBERRY_CARRIER_CODE = BOXBERRY.code;
export const BOXBERRY_CARRIER_NAME = BOXBERRY.name;

/**
 * The vendor's own plugin calls DeliveryPeriod working days, so it is read as such: days_min is the period
 * itself (it cannot be fewer calendar days), days_max the calendar days it can span with weekends (two per
 * started five working days: 3 → 5, 5 → 7, 6 → 10). Were it calendar days, the range still contains it.
 */
export const DELIVERY_PERIOD_IS_WORKING_DAYS: boolean = true;

const SERVICES: Record<BoxberryDeliveryType, { name: string; deliveryType: DeliveryType }> = {
  1: { name: 'До пункта выдачи', deliveryType: 'pickup_point' },
  2: { name: 'Курьером до двери', deliveryType: 'door' },
};

export type CalculationReading =
  | { ok: true; rate: CarrierRate }
  | {
      ok: false;
      failure: CarrierFailure;
      /** an error text this code does not recognise */ unknownText?: string;
    };

/** The options a DeliveryCalculation was asked with (OrderSum, PaySum). */
export interface AskedOptions {
  declaredValueKopecks: number;
  codKopecks: number;
}

/**
 * The parts of a Boxberry price: `PriceBase` the carriage, `PriceService` (TotalPrice − PriceBase) the services
 * — the declared-value fee for `OrderSum`, the cash-on-delivery fee for `PaySum` — and `TotalPrice` both. With
 * one option asked, `PriceService` is its fee; with both, Boxberry gives only their sum (null, null: inside the
 * total); with neither, whatever `PriceService` holds is no option of the clerk's and counts as carriage.
 */
export function breakdownOf(
  baseKopecks: number,
  totalKopecks: number,
  asked: AskedOptions,
): NonNullable<CarrierRate['breakdown']> {
  const insured = asked.declaredValueKopecks > 0;
  const cod = asked.codKopecks > 0;
  // A total below the base would be an answer we misread: its service part is then unknown.
  const service = totalKopecks >= baseKopecks ? totalKopecks - baseKopecks : null;
  if (!insured && !cod) return { base_kopecks: totalKopecks, insurance_kopecks: 0, cod_fee_kopecks: 0 };
  return {
    base_kopecks: service === null ? null : baseKopecks,
    insurance_kopecks: insured ? (cod ? null : service) : 0,
    cod_fee_kopecks: cod ? (insured ? null : service) : 0,
  };
}

/** One DeliveryCalculation answer, for the delivery type that was asked. */
export function readDeliveryCalculation(
  status: number,
  json: unknown,
  asked: BoxberryDeliveryType,
  options: AskedOptions = { declaredValueKopecks: 0, codKopecks: 0 },
): CalculationReading {
  if (status !== 200) return fail('carrier_error', `Boxberry answered HTTP ${status}`);
  const errorText = boxberryErrorText(json);
  if (errorText !== undefined) {
    const meaning = classifyBoxberryError(errorText);
    return { ok: false, failure: meaning.failure, ...(meaning.known ? {} : { unknownText: errorText }) };
  }
  const parsed = BoxberryCalculation.safeParse(json);
  if (!parsed.success) return fail('carrier_error', 'Boxberry answered an unexpected body');
  const entry = parsed.data.result.DeliveryCosts.map((raw) => BoxberryDeliveryCost.safeParse(raw)).find(
    (p) => p.success && Number(p.data.DeliveryTypeId) === asked,
  );
  if (!entry?.success)
    return fail('no_service', `Boxberry offers no ${SERVICES[asked].deliveryType} variant here`);
  const cost = entry.data;
  const base = roublesToKopecks(cost.PriceBase);
  const total = roublesToKopecks(cost.TotalPrice);
  const period = Number(cost.DeliveryPeriod);
  if (base === undefined || total === undefined || !Number.isInteger(period) || period < 0)
    return fail('carrier_error', 'Boxberry answered a price or period it could not read');
  if (base === 0) return fail('no_service', 'Boxberry priced this variant at 0 (no tariff)');
  const [daysMin, daysMax] = periodDays(period);
  return {
    ok: true,
    rate: {
      carrier: BOXBERRY_CARRIER_CODE,
      carrier_name: BOXBERRY_CARRIER_NAME,
      service_code: `${BOXBERRY_CARRIER_CODE}:${asked}`,
      service_name: SERVICES[asked].name,
      delivery_type: SERVICES[asked].deliveryType,
      price_kopecks: total,
      currency: 'RUB',
      days_min: daysMin,
      days_max: daysMax,
      price_type: 'public',
      // PriceService is TotalPrice − PriceBase (protocols.md §3.4); taken from the totals, so the parts always
      // add up to the price even when PriceService is left out.
      breakdown: breakdownOf(base, total, options),
    },
  };
}

export function periodDays(period: number): [number, number] {
  if (!DELIVERY_PERIOD_IS_WORKING_DAYS) return [period, period];
  return [period, period + 2 * Math.ceil(period / 5)];
}

function fail(kind: 'no_service' | 'carrier_error', detail: string): CalculationReading {
  return { ok: false, failure: { kind, detail } };
}
