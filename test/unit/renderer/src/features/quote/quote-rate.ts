// Test helper (#21): the desk's results carry the clerk's QuoteRate; tests that only care about the /v1 fields
// build a /v1 Rate and make it a QuoteRate here (no fees given apart, nothing left out, no customer price).
import type { QuoteRate } from '../../../../../../core/contract/quote-ext';
import type { Rate } from '../../../../../../core/contract/v1';

export function quoteRate(rate: Rate, extras: Partial<QuoteRate> = {}): QuoteRate {
  return {
    ...rate,
    breakdown: { base_kopecks: null, insurance_kopecks: null, cod_fee_kopecks: null },
    options_not_priced: [],
    insured_value_kopecks: 0,
    places: 1,
    days_kind: 'calendar',
    ship_date: '2026-11-27',
    delivery_date_min: null,
    delivery_date_max: null,
    customer_price_kopecks: null,
    ...extras,
  };
}
