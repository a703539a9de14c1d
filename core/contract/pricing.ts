// Resale prices (#21): per account and per carrier, what a customer pays on top of the carrier's price.
// One source for the store's rows, the pricing:* operations, the admin CLI and the settings screen.
import { z } from 'zod';
import { MAX_CARRIER_CODE_LENGTH } from './v1';

const MAX_SUM_KOPECKS = 10_000_000_00;

export const ROUNDINGS = ['none', '1', '5', '10'] as const;

export const PricingRule = z
  .strictObject({
    /** The /v1 account it applies to; null: the desk's own quotes. */
    account_id: z.int().min(1).nullable(),
    /** One carrier's code; null: every carrier of the account without a rule of its own. */
    carrier: z.string().min(1).max(MAX_CARRIER_CODE_LENGTH).nullable(),
    markup_percent: z.number().min(0).max(1000).default(0),
    markup_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).default(0),
    packaging_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).default(0),
    min_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).nullable().default(null),
    max_kopecks: z.int().min(0).max(MAX_SUM_KOPECKS).nullable().default(null),
    /** Rounded up to whole roubles, or to 5 or 10 ₽; `none` keeps kopecks. */
    rounding: z.enum(ROUNDINGS).default('none'),
  })
  .refine((r) => r.min_kopecks === null || r.max_kopecks === null || r.min_kopecks <= r.max_kopecks, {
    path: ['max_kopecks'],
    message: 'the maximum is below the minimum',
  })
  .meta({ id: 'PricingRule' });
export type PricingRule = z.output<typeof PricingRule>;
export type PricingRuleInput = z.input<typeof PricingRule>;
