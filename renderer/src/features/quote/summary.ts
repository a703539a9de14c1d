// The answer at a glance (#17 item 7): the cheapest option and the fastest one, named above the table, so a
// 1024×640 window shows both without scrolling. The same options the ДЁШЕВО / БЫСТРО badges mark (bestOf);
// where several tie, the one a clerk would take: the fastest of the cheapest, the cheapest of the fastest.
// Pure: unit-tested in Node.
import { bestOf, effectiveDays, rateKey, type Rate } from './logic';

export interface QuoteSummary {
  cheapest: Rate;
  /** Null when no option states its transit time. */
  fastest: Rate | null;
  /** One option is both: the line names it once. */
  same: boolean;
}

const daysOf = (r: Rate): number => effectiveDays(r) ?? Number.POSITIVE_INFINITY;

export function summaryOf(rates: readonly Rate[]): QuoteSummary | null {
  if (rates.length === 0) return null;
  const { cheapest, fastest } = bestOf(rates);
  const pick = (keys: ReadonlySet<string>, better: (a: Rate, b: Rate) => number): Rate | null =>
    rates.filter((r) => keys.has(rateKey(r))).sort(better)[0] ?? null;
  const cheap = pick(cheapest, (a, b) => daysOf(a) - daysOf(b) || (a.days_min ?? 0) - (b.days_min ?? 0))!;
  const fast = pick(fastest, (a, b) => a.price_kopecks - b.price_kopecks);
  // The fastest of the cheapest may itself be among the fastest: then it answers both.
  const same = fastest.has(rateKey(cheap));
  return { cheapest: cheap, fastest: same ? cheap : fast, same };
}
