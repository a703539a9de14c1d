// The clerk's quote (#21) in a rate, the pure part: which fee columns a result needs, the price's parts in
// words, what the price leaves out in words, whether there are customer prices. Unit-tested in Node; the
// cells that show them are RateCells.tsx.
import type { NotPriced } from '../../../../core/contract/quote-ext';
import { formatMoney, type Lang } from '../../lib/format';
import type { Rate } from './logic';

export type FeeKind = 'insurance' | 'cod';

/** What the price leaves out, worded: «НП не принимается этим тарифом». */
export function notPricedWords(
  n: NotPriced,
  tx: (key: `notPriced.${FeeKind}.${NotPriced['reason']}`) => string,
): string {
  return tx(`notPriced.${n.option}.${n.reason}`);
}

/**
 * The fees worth a column: asked for (a declared value, a COD) and named apart by some rate. A fee no carrier
 * names apart would only fill a column with «в цене» and squeeze the tariff's name (what the price leaves
 * out is said under the service anyway); a fee not asked for (a carrier that insures by default) stays in
 * the price's tooltip, so a plain quote keeps the table it always had.
 */
export function feeColumns(
  rates: readonly Rate[],
  asked: { declared_value_kopecks?: number | undefined; cod_kopecks?: number | undefined } | null,
): FeeKind[] {
  const given = (k: 'insurance_kopecks' | 'cod_fee_kopecks'): boolean =>
    rates.some((r) => (r.breakdown?.[k] ?? null) !== null);
  return [
    ...((asked?.declared_value_kopecks ?? 0) > 0 && given('insurance_kopecks')
      ? (['insurance'] as const)
      : []),
    ...((asked?.cod_kopecks ?? 0) > 0 && given('cod_fee_kopecks') ? (['cod'] as const) : []),
  ];
}

/** The price's parts in words, for the price's tooltip: «тариф 400,00 ₽ + страховка 12,00 ₽ + комиссия за НП 45,00 ₽». */
export function breakdownText(
  r: Rate,
  lang: Lang,
  words: (k: 'base' | 'insurance' | 'cod') => string,
): string | null {
  const b = r.breakdown;
  if (!b) return null;
  const parts: string[] = [];
  if (b.base_kopecks !== null) parts.push(`${words('base')} ${formatMoney(b.base_kopecks, lang)}`);
  if (b.insurance_kopecks !== null)
    parts.push(`${words('insurance')} ${formatMoney(b.insurance_kopecks, lang)}`);
  if (b.cod_fee_kopecks !== null) parts.push(`${words('cod')} ${formatMoney(b.cod_fee_kopecks, lang)}`);
  return parts.length > 1 ? `${parts.join(' + ')} = ${formatMoney(r.price_kopecks, lang)}` : null;
}

/** True when some rate of the result carries a customer's price (the column and the copy then appear). */
export function hasCustomerPrices(rates: readonly Rate[]): boolean {
  return rates.some((r) => r.customer_price_kopecks !== null && r.customer_price_kopecks !== undefined);
}
