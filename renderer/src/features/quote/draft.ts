// The quote form as typed (text, exactly as the clerk sees it) and its conversion into the clerk's
// QuoteRequest (#21: one box is exactly the /v1 shipment; several places, COD and a ship date are the
// extension's). Pure: unit-tested in Node.
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { moscowToday } from '../../lib/dates';
import type { Lang } from '../../lib/format';
import { parsePostalCode, parseRoublesToKopecks, splitDecimal, type ParseError } from '../../lib/parse';
import {
  boxesOf,
  buildPlace,
  MAX_PLACES,
  parseCod,
  parseShipDate,
  placeCount,
  restorePlaces,
  type PlaceDraft,
  type PlaceErrors,
} from './places-draft';

/** What the form sends: the /v1 shipment for one box, the clerk's QuoteRequest for the rest. */
export type QuoteAsk = QuoteRequestInput;

export interface QuoteDraft {
  fromCity: string;
  fromPostal: string;
  toCity: string;
  toPostal: string;
  /** As typed: kilograms ("1,2"), or with a unit ("1,2 кг", "1200 г"). */
  weight: string;
  length: string;
  width: string;
  height: string;
  /** How many of the first box («N × одинаковых»); empty: one. */
  count: string;
  /** Further boxes («Добавить место»), each with its own weight and sides. */
  more: PlaceDraft[];
  /** As typed, in roubles: "1 500,50", "1500 руб"; empty when no value is declared. */
  value: string;
  /** Cash on delivery (наложенный платёж), roubles as typed; empty: none. */
  cod: string;
  /** The ship date, YYYY-MM-DD; empty: today (the core then applies each carrier's cut-off hour). */
  shipDate: string;
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
  count: '',
  more: [],
  value: '',
  cod: '',
  shipDate: '',
  carriers: null,
};

export type DraftField = Exclude<keyof QuoteDraft, 'carriers' | 'more'>;
/** `past`: a ship date before today; `tooMany`: more than MAX_PLACES places in all (said on the count). */
export type DraftError = ParseError | 'past' | 'tooMany';
export type FormErrors = Partial<Record<DraftField, DraftError>> & {
  /** The further places' errors, by their index in `more`. */
  more?: PlaceErrors[];
};

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
    count: text('count'),
    more: restorePlaces(r['more']),
    value: text('value'),
    cod: text('cod'),
    // A date kept from another day is stale: the form starts from today again.
    shipDate: text('shipDate') > moscowToday() ? text('shipDate') : '',
    carriers,
  };
}

export function swapPlaces(d: QuoteDraft): QuoteDraft {
  return { ...d, fromCity: d.toCity, fromPostal: d.toPostal, toCity: d.fromCity, toPostal: d.fromPostal };
}

export type BuiltShipment = { ok: true; shipment: QuoteAsk } | { ok: false; errors: FormErrors };

/** The draft as a request, or the fields that are wrong (every one of them, not just the first). */
export function buildShipment(d: QuoteDraft, today: string = moscowToday()): BuiltShipment {
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
  const first = buildPlace(d);
  if (!first.ok) Object.assign(errors, first.errors);
  const more = d.more.map(buildPlace);
  if (more.some((p) => !p.ok)) errors.more = more.map((p) => (p.ok ? {} : p.errors));
  const value = parseRoublesToKopecks(d.value);
  if (!value.ok) errors.value = value.error;
  const cod = parseCod(d.cod);
  if (!cod.ok) errors.cod = cod.error;
  const shipDate = parseShipDate(d.shipDate, today);
  if (!shipDate.ok) errors.shipDate = shipDate.error;
  const boxes = [first, ...more].flatMap((p) => (p.ok ? [p] : []));
  if (boxes.length === more.length + 1 && placeCount(boxes) > MAX_PLACES) errors.count = 'tooMany';
  if (
    Object.keys(errors).length > 0 ||
    !fromPostal.ok ||
    !toPostal.ok ||
    !value.ok ||
    !cod.ok ||
    !shipDate.ok ||
    boxes.length !== more.length + 1
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    shipment: {
      from: { country: 'RU', city: fromCity, postal_code: fromPostal.value },
      to: { country: 'RU', city: toCity, postal_code: toPostal.value },
      ...boxesOf(boxes),
      declared_value_kopecks: value.value,
      // Only what was asked: a one-box quote without COD or a date stays exactly the /v1 shipment.
      ...(cod.value > 0 ? { cod_kopecks: cod.value } : {}),
      ...(shipDate.value !== null ? { ship_date: shipDate.value } : {}),
      ...(d.carriers && d.carriers.length > 0 ? { carriers: d.carriers } : {}),
    },
  };
}

/**
 * A weight of 10 g or less is asked about before a quote goes out (issue #17: «10 г? проверьте — может быть,
 * 10 кг»): a parcel that light is rare, a unit slip is not. Inclusive: 10 g is the issue's own example.
 */
export const QUESTIONABLE_GRAMS = 10;

export function isQuestionableWeight(grams: number): boolean {
  return grams <= QUESTIONABLE_GRAMS;
}

const NUMBER_FIELDS = ['weight', 'length', 'width', 'height', 'value', 'cod'] as const;
const PLACE_NUMBER_FIELDS = ['weight', 'length', 'width', 'height'] as const;

/**
 * A number as the field shows it in this language: the decimal separator becomes the language's ("1,2" ↔
 * "1.2"); digits and grouping spaces stay exactly as typed (no float on the way). Text that is not a plain
 * decimal is left alone, so a mistake stays visible with its error.
 */
export function localiseNumber(text: string, lang: Lang): string {
  if (!splitDecimal(text) || !/^[^.,]*[.,]?[^.,]*$/.test(text)) return text;
  return text.replace(/[.,]/, lang === 'ru' ? ',' : '.');
}

/** Every number field of the draft in the language's decimal separator (after a language switch, on load). */
export function localiseDraft(d: QuoteDraft, lang: Lang): QuoteDraft {
  let changed = false;
  const next = { ...d };
  for (const f of NUMBER_FIELDS) {
    const v = localiseNumber(d[f], lang);
    if (v !== d[f]) {
      next[f] = v;
      changed = true;
    }
  }
  const more = d.more.map((p) => {
    const q = { ...p };
    for (const f of PLACE_NUMBER_FIELDS) q[f] = localiseNumber(p[f], lang);
    return PLACE_NUMBER_FIELDS.some((f) => q[f] !== p[f]) ? q : p;
  });
  if (more.some((p, i) => p !== d.more[i])) {
    next.more = more;
    changed = true;
  }
  return changed ? next : d;
}

/**
 * Whether two shipments ask the same question (the result of one answers the other). Carriers compare as a
 * set; "every carrier" (no list) is its own value.
 */
export function sameShipment(a: QuoteAsk, b: QuoteAsk): boolean {
  return shipmentKey(a) === shipmentKey(b);
}

function shipmentKey(s: QuoteAsk): string {
  const place = (p: QuoteAsk['from']): string => `${p.city.trim().toLowerCase()}|${p.postal_code ?? ''}`;
  // One box and one place of count 1 ask the same question.
  const boxes = (s.places ?? (s.parcel ? [s.parcel] : [])).map((p) => [
    p.weight_grams,
    p.length_cm,
    p.width_cm,
    p.height_cm,
    'count' in p ? (p.count ?? 1) : 1,
  ]);
  return JSON.stringify([
    place(s.from),
    place(s.to),
    boxes,
    s.declared_value_kopecks ?? 0,
    s.cod_kopecks ?? 0,
    s.ship_date ?? null,
    s.carriers ? [...s.carriers].sort() : null,
  ]);
}

/** The first box of a request (what the weight question and the heading read). */
export function firstBox(s: QuoteAsk): {
  weight_grams: number;
  length_cm: number;
  width_cm: number;
  height_cm: number;
} {
  const p = s.places?.[0] ?? s.parcel;
  if (!p) throw new Error('a request without a box');
  return p;
}
