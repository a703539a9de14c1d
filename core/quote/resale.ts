// The customer's price (#21): the carrier's price with the account's resale rule for that carrier.
import type { PricingRule } from '../contract/pricing';

const STEP_KOPECKS = { none: 1, '1': 100, '5': 500, '10': 1000 } as const;

/** The most specific rule: the account's rule for this carrier, else its rule for every carrier. */
export function ruleFor(rules: readonly PricingRule[], carrier: string): PricingRule | null {
  return rules.find((r) => r.carrier === carrier) ?? rules.find((r) => r.carrier === null) ?? null;
}

/**
 * Markup (% then the fixed sum) and packaging on top of the carrier's price, then rounded up to the rule's
 * step, then held within the minimum and maximum (the maximum is a promise to the customer: it wins over
 * rounding). Kopecks stay whole: a part kopeck is rounded up.
 */
export function customerPrice(rule: PricingRule | null, priceKopecks: number): number | null {
  if (rule === null) return null;
  const marked = priceKopecks + (priceKopecks * rule.markup_percent) / 100;
  // A float like 1234.0000000002 must not become a kopeck more.
  let price = Math.ceil(Math.round(marked * 1e6) / 1e6) + rule.markup_kopecks + rule.packaging_kopecks;
  const step = STEP_KOPECKS[rule.rounding];
  price = Math.ceil(price / step) * step;
  if (rule.min_kopecks !== null) price = Math.max(price, rule.min_kopecks);
  if (rule.max_kopecks !== null) price = Math.min(price, rule.max_kopecks);
  return price;
}
