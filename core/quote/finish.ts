// A carrier's rate made into the clerk's quote rate (#21): the fee breakdown completed, the delivery dates and
// the customer's price added. Every path that quotes (/v1, /ext/v1, the desk, the bulk run) goes through here,
// so the desk and the extension endpoint can never disagree; /v1 then drops what it does not carry.
import type { PricingRule } from '../contract/pricing';
import { DESK_ACCOUNT, type RatingResult } from '../rating/aggregator';
import { placesOf, type CarrierRate, type QuoteRate, type QuoteShipment } from '../contract/quote-ext';
import { deliveryDates, type DayRules } from './delivery-dates';
import { customerPrice, ruleFor } from './resale';

export interface FinishContext {
  shipment: QuoteShipment;
  now: Date;
  /** The carrier's kind of days and cut-off (its descriptor, or its setting). */
  dayRules(carrier: string): DayRules;
  /** The asking account's resale rules (none: no customer price). */
  pricing: readonly PricingRule[];
}

export function finishRate(rate: CarrierRate, ctx: FinishContext): QuoteRate {
  const rules = ctx.dayRules(rate.carrier);
  const kind = rate.days_kind ?? rules.kind;
  const dates = deliveryDates({
    requested: ctx.shipment.ship_date ?? null,
    now: ctx.now,
    rules: { ...rules, kind },
    daysMin: rate.days_min ?? null,
    daysMax: rate.days_max ?? null,
  });
  const { breakdown, options_not_priced, insured_value_kopecks, days_kind: _kind, ...v1 } = rate;
  return {
    ...v1,
    breakdown: {
      base_kopecks: breakdown?.base_kopecks ?? null,
      insurance_kopecks: breakdown?.insurance_kopecks ?? null,
      cod_fee_kopecks: breakdown?.cod_fee_kopecks ?? null,
    },
    options_not_priced: options_not_priced ?? [],
    insured_value_kopecks: insured_value_kopecks ?? ctx.shipment.declared_value_kopecks,
    places: placesOf(ctx.shipment).length,
    days_kind: kind,
    ...dates,
    customer_price_kopecks: customerPrice(ruleFor(ctx.pricing, rate.carrier), rate.price_kopecks),
  };
}

export function finishRates(rates: readonly CarrierRate[], ctx: FinishContext): QuoteRate[] {
  return rates.map((r) => finishRate(r, ctx));
}

/** A rating result whose rates are the clerk's quote rates. */
export type QuoteResult = Omit<RatingResult, 'rates'> & { rates: QuoteRate[] };

export function finishResult(result: RatingResult, ctx: FinishContext): QuoteResult {
  return { ...result, rates: finishRates(result.rates, ctx) };
}

/** The resale rules' owner for an asker of the aggregator: the desk (null) or a /v1 account id. */
export function pricingAccount(account: string): number | null | undefined {
  if (account === DESK_ACCOUNT) return null;
  const id = Number(account);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
