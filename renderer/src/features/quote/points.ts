// Pickup points for a rate (#21), the pure part: which rates have them, the query points:search takes for the
// asked shipment, a point's limits and marks as the list shows them, and the chosen point in copied text.
// Unit-tested in Node; the list itself is PointsPanel.tsx.
import type { PickupPoint, PointsQueryInput } from '../../../../core/contract/points';
import { formatDecimal, formatWeight, type Lang } from '../../lib/format';
import type { QuoteAsk } from './draft';
import type { Rate } from './logic';

/** A rate delivered to a point (a ПВЗ, a locker, a post office) has points to choose from. */
export function hasPoints(r: Pick<Rate, 'delivery_type'>): boolean {
  return r.delivery_type === 'pickup_point' || r.delivery_type === 'post_office';
}

/** The points:search question for this rate of this shipment: the same boxes and COD the quote asked. */
export function pointsQuery(carrier: string, s: QuoteAsk, limit = 50): PointsQueryInput {
  const places = s.places ?? (s.parcel ? [{ ...s.parcel, count: 1 }] : []);
  return {
    carrier,
    to: s.to,
    places,
    cod_kopecks: s.cod_kopecks ?? 0,
    limit,
  };
}

/** «до 15 кг · до 60×40×40 см», or null when the carrier publishes no limits (which is not: unlimited). */
export function pointLimits(
  p: PickupPoint,
  lang: Lang,
  words: { weight: (w: string) => string; dims: (d: string) => string },
): string | null {
  const parts: string[] = [];
  if (p.max_weight_grams !== null) parts.push(words.weight(formatWeight(p.max_weight_grams, lang)));
  if (p.max_dimensions_cm !== null)
    parts.push(words.dims(p.max_dimensions_cm.map((n) => formatDecimal(n, lang)).join('×')));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Kilometres to one decimal: «1,2». */
export function formatKm(km: number, lang: Lang): string {
  return formatDecimal(Math.round(km * 10) / 10, lang);
}

/** The chosen point as copied text names it: «пункт выдачи KZN12, Казань, ул. Баумана, 12». */
export function pointText(p: PickupPoint, words: (code: string, address: string) => string): string {
  return words(p.code, p.address);
}
