// The quote screen's pure logic: sorting, the Pareto view, badges, the streaming row order and the
// form → Shipment conversion. No DOM and no React: unit-tested in Node (test/unit/renderer/).
import type { DeliveryType, Rate, ShipmentInput } from '../../../../core/contract/v1';
import { formatDays, formatMoney, type Lang } from '../../lib/format';
import {
  parseCm,
  parseKgToGrams,
  parsePostalCode,
  parseRoublesToKopecks,
  type ParseError,
} from '../../lib/parse';

export type { DeliveryType, Rate };

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
 * The display order while results stream in: rows already shown keep their places, and a carrier's new
 * rows are appended after them (sorted among themselves). Re-sorting the whole table is the user's call.
 */
export function appendOrder(order: readonly string[], incoming: readonly Rate[], sort: Sort): string[] {
  const seen = new Set(order);
  const fresh = sortRates(
    incoming.filter((r) => !seen.has(rateKey(r))),
    sort,
  ).map(rateKey);
  const unique = [...new Set(fresh)];
  return unique.length === 0 ? [...order] : [...order, ...unique];
}

/** The order of a full re-sort. */
export function sortedOrder(rates: Iterable<Rate>, sort: Sort): string[] {
  return sortRates([...rates], sort).map(rateKey);
}

/** True when the shown order differs from what sorting would give (the "re-sort" button appears). */
export function needsResort(order: readonly string[], rates: ReadonlyMap<string, Rate>, sort: Sort): boolean {
  const want = sortedOrder(rates.values(), sort);
  return want.length !== order.length || want.some((k, i) => order[i] !== k);
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

/** One result as text for the clipboard (Ctrl+C): "СДЭК — Посылка склад-склад — ПВЗ — 2–3 дн. — 412,00 ₽". */
export function rateAsText(
  r: Rate,
  deliveryLabel: (t: DeliveryType) => string,
  lang: Lang,
  route?: string,
): string {
  const parts = [
    r.carrier_name,
    r.service_name,
    deliveryLabel(r.delivery_type),
    formatDays(r.days_min, r.days_max, lang),
    formatMoney(r.price_kopecks, lang),
  ];
  return (route ? `${route}: ` : '') + parts.join(' — ');
}

// ------------------------------------------------------------------------------------------------
// The form
// ------------------------------------------------------------------------------------------------

export interface QuoteDraft {
  fromCity: string;
  fromPostal: string;
  toCity: string;
  toPostal: string;
  /** As typed, in kilograms: "1,2". */
  weight: string;
  length: string;
  width: string;
  height: string;
  /** As typed, in roubles: "1 500,50". */
  value: string;
  /** null: every enabled carrier. */
  carriers: string[] | null;
}

export const EMPTY_DRAFT: QuoteDraft = {
  fromCity: '',
  fromPostal: '',
  toCity: '',
  toPostal: '',
  weight: '',
  length: '',
  width: '',
  height: '',
  value: '',
  carriers: null,
};

export type DraftField = Exclude<keyof QuoteDraft, 'carriers'>;
export type FormErrors = Partial<Record<DraftField, ParseError>>;

/** A stored draft from an older build or a hand-edited file: keep what fits, drop the rest. */
export function restoreDraft(raw: unknown): QuoteDraft {
  if (!raw || typeof raw !== 'object') return { ...EMPTY_DRAFT };
  const r = raw as Record<string, unknown>;
  const text = (k: DraftField): string => (typeof r[k] === 'string' ? (r[k] as string).slice(0, 200) : '');
  const carriers =
    Array.isArray(r['carriers']) && r['carriers'].every((c) => typeof c === 'string')
      ? (r['carriers'] as string[])
      : null;
  return {
    fromCity: text('fromCity'),
    fromPostal: text('fromPostal'),
    toCity: text('toCity'),
    toPostal: text('toPostal'),
    weight: text('weight'),
    length: text('length'),
    width: text('width'),
    height: text('height'),
    value: text('value'),
    carriers,
  };
}

export function swapPlaces(d: QuoteDraft): QuoteDraft {
  return { ...d, fromCity: d.toCity, fromPostal: d.toPostal, toCity: d.fromCity, toPostal: d.fromPostal };
}

export type BuiltShipment = { ok: true; shipment: ShipmentInput } | { ok: false; errors: FormErrors };

/** The draft as a /v1 Shipment, or the fields that are wrong (every one of them, not just the first). */
export function buildShipment(d: QuoteDraft): BuiltShipment {
  const errors: FormErrors = {};
  const city = (field: 'fromCity' | 'toCity'): string => {
    const v = d[field].trim().replace(/\s+/g, ' ');
    if (v === '') errors[field] = 'empty';
    else if (v.length > 120) errors[field] = 'range';
    return v;
  };
  const fromCity = city('fromCity');
  const toCity = city('toCity');
  const fromPostal = parsePostalCode(d.fromPostal);
  if (!fromPostal.ok) errors.fromPostal = fromPostal.error;
  const toPostal = parsePostalCode(d.toPostal);
  if (!toPostal.ok) errors.toPostal = toPostal.error;
  const weight = parseKgToGrams(d.weight);
  if (!weight.ok) errors.weight = weight.error;
  const length = parseCm(d.length);
  if (!length.ok) errors.length = length.error;
  const width = parseCm(d.width);
  if (!width.ok) errors.width = width.error;
  const height = parseCm(d.height);
  if (!height.ok) errors.height = height.error;
  const value = parseRoublesToKopecks(d.value);
  if (!value.ok) errors.value = value.error;
  if (
    Object.keys(errors).length > 0 ||
    !fromPostal.ok ||
    !toPostal.ok ||
    !weight.ok ||
    !length.ok ||
    !width.ok ||
    !height.ok ||
    !value.ok
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    shipment: {
      from: { country: 'RU', city: fromCity, postal_code: fromPostal.value },
      to: { country: 'RU', city: toCity, postal_code: toPostal.value },
      parcel: {
        weight_grams: weight.value,
        length_cm: length.value,
        width_cm: width.value,
        height_cm: height.value,
      },
      declared_value_kopecks: value.value,
      ...(d.carriers && d.carriers.length > 0 ? { carriers: d.carriers } : {}),
    },
  };
}
