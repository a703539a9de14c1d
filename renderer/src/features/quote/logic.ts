// The quote screen's pure logic: sorting, the Pareto view, badges and the row order. No DOM and no React:
// unit-tested in Node (test/unit/renderer/). The form lives in draft.ts, clipboard text in copy-text.ts;
// both are re-exported here so callers have one import.
import type { QuoteRate } from '../../../../core/contract/quote-ext';
import type { DeliveryType, Rate as V1Rate } from '../../../../core/contract/v1';

export type { DeliveryType, QuoteRate };
/**
 * A rate as the screens show it: the clerk's QuoteRate (#21: fees, dates, the customer's price), whose extras
 * are optional here because a result kept from an older build, and History's rows from before #21, have only
 * the /v1 fields. Every view says nothing of what a rate does not carry.
 */
export type Rate = V1Rate & Partial<Omit<QuoteRate, keyof V1Rate>>;
export * from './draft';
export { rateAsText, resultsAsText } from './copy-text';

/** One row per carrier service. */
export function rateKey(r: Pick<Rate, 'carrier' | 'service_code'>): string {
  return `${r.carrier}/${r.service_code}`;
}

export type SortKey = 'price' | 'days';
export type SortDir = 'asc' | 'desc';
export interface Sort {
  key: SortKey;
  dir: SortDir;
}
export const DEFAULT_SORT: Sort = { key: 'price', dir: 'asc' };

/** The transit time used to compare options: the promised maximum (the minimum when only that is known). */
export function effectiveDays(r: Pick<Rate, 'days_min' | 'days_max'>): number | null {
  return r.days_max ?? r.days_min ?? null;
}

function compareNullableLast(a: number | null, b: number | null, dir: SortDir): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return dir === 'asc' ? a - b : b - a;
}

/**
 * Price: price, then days, then name. Days: maximum days, then minimum days, then price. Unknown days sort
 * last in either direction (they are never "the fastest"). Ties end on carrier and service so the order is
 * total and stable across runs.
 */
export function compareRates(a: Rate, b: Rate, sort: Sort): number {
  const byPrice = (dir: SortDir): number =>
    dir === 'asc' ? a.price_kopecks - b.price_kopecks : b.price_kopecks - a.price_kopecks;
  const byDays = (dir: SortDir): number =>
    compareNullableLast(effectiveDays(a), effectiveDays(b), dir) ||
    compareNullableLast(a.days_min ?? null, b.days_min ?? null, dir);
  const primary =
    sort.key === 'price' ? byPrice(sort.dir) || byDays('asc') : byDays(sort.dir) || byPrice('asc');
  return primary || a.carrier.localeCompare(b.carrier) || a.service_code.localeCompare(b.service_code);
}

export function sortRates<T extends Rate>(rates: readonly T[], sort: Sort): T[] {
  return [...rates].sort((a, b) => compareRates(a, b, sort));
}

/**
 * Options not dominated by another: an option is hidden when some other option is at most as dear AND at
 * most as slow, and strictly better in one of the two (a standard Pareto front on price × maximum days).
 * Options with unknown days count as the slowest, so they stay only when nothing is as cheap. Identical
 * options (same price and days) both stay.
 */
export function paretoFront<T extends Rate>(rates: readonly T[]): T[] {
  const days = (r: Rate): number => effectiveDays(r) ?? Number.POSITIVE_INFINITY;
  return rates.filter(
    (r) =>
      !rates.some(
        (o) =>
          o !== r &&
          o.price_kopecks <= r.price_kopecks &&
          days(o) <= days(r) &&
          (o.price_kopecks < r.price_kopecks || days(o) < days(r)),
      ),
  );
}

/** Keys of the cheapest and of the fastest options (every tie gets the badge). */
export function bestOf(rates: readonly Rate[]): { cheapest: Set<string>; fastest: Set<string> } {
  const cheapest = new Set<string>();
  const fastest = new Set<string>();
  if (rates.length === 0) return { cheapest, fastest };
  const minPrice = Math.min(...rates.map((r) => r.price_kopecks));
  for (const r of rates) if (r.price_kopecks === minPrice) cheapest.add(rateKey(r));
  const known = rates.filter((r) => effectiveDays(r) !== null);
  if (known.length > 0) {
    const minDays = Math.min(...known.map((r) => effectiveDays(r)!));
    const atMin = known.filter((r) => effectiveDays(r) === minDays);
    const minLow = Math.min(...atMin.map((r) => r.days_min ?? minDays));
    for (const r of atMin) if ((r.days_min ?? minDays) === minLow) fastest.add(rateKey(r));
  }
  return { cheapest, fastest };
}

/**
 * The display order, always the order the header shows (issue #9: rows that arrive later are inserted where
 * they belong, never appended below). The row being read does not move on screen: RatesTable scrolls by the
 * height of what was inserted above it.
 */
export function sortedOrder(rates: Iterable<Rate>, sort: Sort): string[] {
  return sortRates([...rates], sort).map(rateKey);
}

/** Clicking a header: the same column flips direction, another column starts ascending. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: 'asc' };
}

export function parseSort(text: string | null): Sort {
  if (!text) return DEFAULT_SORT;
  const [key, dir] = text.split(':');
  if ((key === 'price' || key === 'days') && (dir === 'asc' || dir === 'desc')) return { key, dir };
  return DEFAULT_SORT;
}

export function formatSort(sort: Sort): string {
  return `${sort.key}:${sort.dir}`;
}

/** The delivery-type filter: 'all' or one type. */
export type DeliveryFilter = 'all' | DeliveryType;
export const DELIVERY_FILTERS: readonly DeliveryFilter[] = [
  'all',
  'door',
  'pickup_point',
  'post_office',
  'terminal',
];

export function matchesDelivery(r: Pick<Rate, 'delivery_type'>, filter: DeliveryFilter): boolean {
  return filter === 'all' || r.delivery_type === filter;
}
