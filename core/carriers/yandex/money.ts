// "225.7 RUB" → 22570 kopecks, exactly (verified-2026.md §7.3: the documented example has one decimal, not
// two; clients parse `split(' ')[0]`). Only roubles are accepted: a price in another currency is not a price.
import { roublesToKopecks } from '../money';

export function parsePricingTotal(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s+([A-Z]{3})\s*$/.exec(text);
  if (!m || m[2] !== 'RUB') return undefined;
  return roublesToKopecks(m[1]!);
}
