// Resale prices (#21): the rules an admin sets per account (or the desk) and carrier (or all carriers), read
// by clerks too (the settings tab shows them). Renderer-safe: zod and constants only.
import { z } from 'zod';
import { PRICING_TERMS, checkPricingTerms } from '../pricing';
import { MAX_CARRIER_CODE_LENGTH } from '../v1';
import { NoInput } from './common';
import { AccountRef } from './accounts';

/** Whose rule: an account by name, or null for the desk's own quotes; and one carrier, or null for all. */
const Owner = {
  account: AccountRef.nullable(),
  carrier: z.string().trim().toLowerCase().min(1).max(MAX_CARRIER_CODE_LENGTH).nullable(),
};

export const PricingRuleView = z.object({
  /** The account's name; null: the desk's own quotes. */
  account: z.string().nullable(),
  account_id: z.int().min(1).nullable(),
  carrier: z.string().nullable(),
  markup_percent: z.number(),
  markup_kopecks: z.int(),
  packaging_kopecks: z.int(),
  min_kopecks: z.int().nullable(),
  max_kopecks: z.int().nullable(),
  rounding: PRICING_TERMS.rounding.unwrap(),
});
export type PricingRuleView = z.output<typeof PricingRuleView>;

/** The whole rule: what is left out is none (no markup, no packaging, no limits, no rounding). */
export const PricingSetInput = z.strictObject({ ...Owner, ...PRICING_TERMS }).superRefine(checkPricingTerms);
export type PricingSetInput = z.input<typeof PricingSetInput>;

export const pricingOperations = {
  /** Every rule: the desk's first, then by account; within an owner the rule for all carriers first. */
  'pricing:list': { input: NoInput, output: z.array(PricingRuleView) },
  /** Sets the rule of (account, carrier), replacing the one there. */
  'pricing:set': {
    input: PricingSetInput,
    output: PricingRuleView.extend({ replaced: z.boolean() }),
  },
  'pricing:remove': { input: z.strictObject(Owner), output: PricingRuleView },
} as const;
