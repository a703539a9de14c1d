// The clerk's quote (#21) in the form: several places («Добавить место», each its own box, or «N × одинаковых»
// as a count), cash on delivery and the ship date, as typed, and what they become in the QuoteRequest. Pure:
// unit-tested in Node. The first place is the form's own weight and sides (draft.ts), so a one-box quote is
// exactly the form it always was.
import { MAX_PLACES } from '../../../../core/contract/quote-ext';
import type { Parcel } from '../../../../core/contract/v1';
import { addDays, daysBetween, isIsoDate } from '../../lib/dates';
import {
  parseCm,
  parseRoublesToKopecks,
  parseWeightToGrams,
  type ParseError,
  type Parsed,
} from '../../lib/parse';

export { MAX_PLACES };

/** One more box as typed. `count`: how many of it ('' reads as one). */
export interface PlaceDraft {
  weight: string;
  length: string;
  width: string;
  height: string;
  count: string;
}

export type PlaceField = keyof PlaceDraft;
export type PlaceErrors = Partial<Record<PlaceField, ParseError>>;

/** The element id of a box's field: the first box's own ids, `place-N-field` for place N ≥ 2. */
export function placeFieldId(place: number, field: PlaceField | 'box'): string {
  if (place === 1) return field === 'count' ? 'place-count' : field === 'box' ? 'box-preset' : field;
  return `place-${place}-${field}`;
}

export const EMPTY_PLACE: PlaceDraft = { weight: '', length: '', width: '', height: '', count: '' };

/** The ship date may be picked this far ahead (a typo in the year must not go out as a date in 2062). */
export const MAX_SHIP_DAYS_AHEAD = 365;

/** How many of a box: '' is one; a whole number from 1 to MAX_PLACES. */
export function parseCount(text: string): Parsed<number> {
  const t = text.trim();
  if (t === '') return { ok: true, value: 1 };
  if (!/^\d+$/.test(t)) return { ok: false, error: 'format' };
  const n = Number(t);
  if (n < 1 || n > MAX_PLACES) return { ok: false, error: 'range' };
  return { ok: true, value: n };
}

/** Cash on delivery in roubles → kopecks, the declared value's rules ('' is none). */
export function parseCod(text: string): Parsed<number> {
  return parseRoublesToKopecks(text);
}

/**
 * The ship date: '' is today (not sent: the core then applies the carrier's cut-off hour); otherwise a date
 * from today to a year ahead. `past` and `range` are told apart so the message can say which.
 */
export function parseShipDate(
  text: string,
  today: string,
): Parsed<string | null> | { ok: false; error: 'past' } {
  const t = text.trim();
  if (t === '' || t === today) return { ok: true, value: null };
  if (!isIsoDate(t)) return { ok: false, error: 'format' };
  const ahead = daysBetween(today, t);
  if (ahead < 0) return { ok: false, error: 'past' };
  if (ahead > MAX_SHIP_DAYS_AHEAD) return { ok: false, error: 'range' };
  return { ok: true, value: t };
}

/** «Завтра»: the day after `today`. */
export function tomorrowOf(today: string): string {
  return addDays(today, 1);
}

/** One box and its count, or the fields that are wrong. */
export function buildPlace(
  p: PlaceDraft,
): { ok: true; box: Parcel; count: number } | { ok: false; errors: PlaceErrors } {
  const errors: PlaceErrors = {};
  const weight = parseWeightToGrams(p.weight);
  if (!weight.ok) errors.weight = weight.error;
  const length = parseCm(p.length);
  if (!length.ok) errors.length = length.error;
  const width = parseCm(p.width);
  if (!width.ok) errors.width = width.error;
  const height = parseCm(p.height);
  if (!height.ok) errors.height = height.error;
  const count = parseCount(p.count);
  if (!count.ok) errors.count = count.error;
  if (!weight.ok || !length.ok || !width.ok || !height.ok || !count.ok) return { ok: false, errors };
  return {
    ok: true,
    box: {
      weight_grams: weight.value,
      length_cm: length.value,
      width_cm: width.value,
      height_cm: height.value,
    },
    count: count.value,
  };
}

/**
 * What the request carries: `parcel` for one box (exactly the /v1 shipment), `places` for several (a count
 * above one, or more than one box).
 */
export function boxesOf(
  boxes: ReadonlyArray<{ box: Parcel; count: number }>,
): { parcel: Parcel } | { places: Array<Parcel & { count: number }> } {
  if (boxes.length === 1 && boxes[0]!.count === 1) return { parcel: boxes[0]!.box };
  return { places: boxes.map(({ box, count }) => ({ ...box, count })) };
}

/** Every place counted (N × the same box counts N). */
export function placeCount(boxes: ReadonlyArray<{ count: number }>): number {
  return boxes.reduce((n, b) => n + b.count, 0);
}

/** A stored extra place from an older build or a hand-edited file: what fits, as text. */
export function restorePlaces(raw: unknown): PlaceDraft[] {
  if (!Array.isArray(raw)) return [];
  const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 40) : '');
  return raw
    .slice(0, MAX_PLACES - 1)
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .map((p) => ({
      weight: text(p['weight']),
      length: text(p['length']),
      width: text(p['width']),
      height: text(p['height']),
      count: text(p['count']),
    }));
}
