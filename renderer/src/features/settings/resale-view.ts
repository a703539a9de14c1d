// How a resale rule reads in the table and the form (#21): its percentage in the language's decimals, and
// what it makes of a few carrier prices (the contract's own customerPrice, so the preview is the quote).
import type { PricingSetInput } from '../../../../core/desk/contract';
import { customerPrice, PricingRule } from '../../../../core/contract/pricing';
import type { Lang } from '../../lib/format';
import { PREVIEW_PRICES_KOPECKS } from './resale-form';

/** 12.5 → "12,5" in Russian. */
export function percentText(percent: number, lang: Lang): string {
  return lang === 'ru' ? String(percent).replace('.', ',') : String(percent);
}

/** The customer's price of each preview price, or null while the rule is not valid. */
export function previewOf(input: PricingSetInput | null): Array<{ from: number; to: number }> | null {
  if (input === null) return null;
  const { account: _account, ...rest } = input;
  const parsed = PricingRule.safeParse({ ...rest, account_id: null });
  if (!parsed.success) return null;
  return PREVIEW_PRICES_KOPECKS.map((from) => ({ from, to: customerPrice(parsed.data, from) ?? from }));
}
