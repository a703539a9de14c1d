// Resale prices (#21): per account and per carrier, what a customer pays on top of the carrier's price.
// One source for the store's rows, the pricing:* operations, the admin CLI, the settings screen (its preview
// runs customerPrice too) and every quote (core/quote/finish.ts), so none of them can disagree.
import { z } from 'zod';
import { MAX_CARRIER_CODE_LENGTH } from './v1';

const MAX_SUM_KOPECKS = 10_000_000_00;
export const MAX_MARKUP_PERCENT = 1000;

export const ROUNDINGS = ['none', '1', '5', '10'] as const;
export type Rounding = (typeof ROUNDINGS)[number];

/** What a price is rounded up to, in kopecks: whole roubles, 5 or 10 ₽; `none` keeps kopecks. */
export const ROUNDING_STEP_KOPECKS = { none: 1, '1': 100, '5': 500, '10': 1000 } as const satisfies Record<
  Rounding,
  number
>;

/** The percentage in hundredths of a percent, when it has at most two decimals (12.5, 7.25); else null. */
export function percentHundredths(percent: number): number | null {
  const hundredths = Math.round(percent * 100);
  // 12.35 * 100 is 1234.9999999999998: a float's last bits are not a third decimal.
  return Math.abs(percent * 100 - hundredths) < 1e-6 ? hundredths : null;
}

const isStepMultiple = (kopecks: number | null, rounding: Rounding): boolean =>
  kopecks === null || kopecks % ROUNDING_STEP_KOPECKS[rounding] === 0;

/** A rule's terms, without whose rule it is: the same for the store's row and an operation's input. */
export const PRICING_TERMS = {
  /** On the carrier's price (its total: base, insurance and COD fee), two decimals at most. */
  markup_percent: z.number().min(0).max(MAX_MARKUP_PERCENT).default(0),
  markup_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).default(0),
  packaging_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).default(0),
  min_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).nullable().default(null),
  max_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).nullable().default(null),
  /** Rounded up to whole roubles, or to 5 or 10 ₽; `none` keeps kopecks. */
  rounding: z.enum(ROUNDINGS).default('none'),
};
type Terms = z.output<z.ZodObject<typeof PRICING_TERMS>>;

/** What the fields' own bounds cannot say: checked wherever a rule comes in (PricingRule, pricing:set). */
export function checkPricingTerms(r: Terms, ctx: z.RefinementCtx): void {
  const issue = (path: keyof Terms, message: string): void =>
    ctx.addIssue({ code: 'custom', path: [path], message });
  if (percentHundredths(r.markup_percent) === null)
    issue('markup_percent', 'the percentage has more than two decimals');
  if (r.min_kopecks !== null && r.max_kopecks !== null && r.min_kopecks > r.max_kopecks)
    issue('max_kopecks', 'the maximum is below the minimum');
  // So every customer price is a multiple of the step, the limits too: a minimum of 299,90 ₽ under
  // "round to 10 ₽" would otherwise give prices the rounding promised never to give.
  if (!isStepMultiple(r.min_kopecks, r.rounding))
    issue('min_kopecks', 'the minimum is not a multiple of the rounding step');
  if (!isStepMultiple(r.max_kopecks, r.rounding))
    issue('max_kopecks', 'the maximum is not a multiple of the rounding step');
}

export const PricingRule = z
  .strictObject({
    /** The /v1 account it applies to; null: the desk's own quotes. */
    account_id: z.int().min(1).nullable(),
    /** One carrier's code; null: every carrier of the account without a rule of its own. */
    carrier: z.string().min(1).max(MAX_CARRIER_CODE_LENGTH).nullable(),
    ...PRICING_TERMS,
  })
  .superRefine(checkPricingTerms)
  .meta({ id: 'PricingRule' });
export type PricingRule = z.output<typeof PricingRule>;
export type PricingRuleInput = z.input<typeof PricingRule>;

/** The most specific rule: the account's rule for this carrier, else its rule for every carrier. */
export function ruleFor(rules: readonly PricingRule[], carrier: string): PricingRule | null {
  return rules.find((r) => r.carrier === carrier) ?? rules.find((r) => r.carrier === null) ?? null;
}

/** ⌈a / b⌉ of non-negative integers, exact at any size. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * The customer's price of a carrier price under `rule` (null: no rule, no customer price): the markup in
 * percent (a part kopeck counts as a whole one), plus the fixed markup and the packaging, rounded up to the
 * rule's step, then raised to the minimum and held to the maximum (both multiples of the step, so the price
 * stays one). Integer arithmetic throughout: a price is never a kopeck off through a float's last bits.
 */
export function customerPrice(rule: PricingRule | null, priceKopecks: number): number | null {
  if (rule === null) return null;
  const hundredths = BigInt(percentHundredths(rule.markup_percent) ?? Math.round(rule.markup_percent * 100));
  const price = BigInt(priceKopecks);
  const marked = price + ceilDiv(price * hundredths, 10_000n);
  const step = BigInt(ROUNDING_STEP_KOPECKS[rule.rounding]);
  let customer = ceilDiv(marked + BigInt(rule.markup_kopecks) + BigInt(rule.packaging_kopecks), step) * step;
  if (rule.min_kopecks !== null && customer < BigInt(rule.min_kopecks)) customer = BigInt(rule.min_kopecks);
  if (rule.max_kopecks !== null && customer > BigInt(rule.max_kopecks)) customer = BigInt(rule.max_kopecks);
  // Past 2^53 kopecks (90 trillion ₽) no price is real; a number must still come out.
  return customer > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(customer);
}
