// The quote form as typed (text, exactly as the clerk sees it) and its conversion into a /v1 Shipment.
// Pure: unit-tested in Node.
import type { ShipmentInput } from '../../../../core/contract/v1';
import type { Lang } from '../../lib/format';
import {
  parseCm,
  parsePostalCode,
  parseWeightToGrams,
  parseRoublesToKopecks,
  splitDecimal,
  type ParseError,
} from '../../lib/parse';

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
  /** As typed, in roubles: "1 500,50", "1500 руб"; empty when no value is declared. */
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
  const weight = parseWeightToGrams(d.weight);
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

/**
 * A weight of 10 g or less is asked about before a quote goes out (issue #17: «10 г? проверьте — может быть,
 * 10 кг»): a parcel that light is rare, a unit slip is not. Inclusive: 10 g is the issue's own example.
 */
export const QUESTIONABLE_GRAMS = 10;

export function isQuestionableWeight(grams: number): boolean {
  return grams <= QUESTIONABLE_GRAMS;
}

const NUMBER_FIELDS = ['weight', 'length', 'width', 'height', 'value'] as const;

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
  return changed ? next : d;
}

/**
 * Whether two shipments ask the same question (the result of one answers the other). Carriers compare as a
 * set; "every carrier" (no list) is its own value.
 */
export function sameShipment(a: ShipmentInput, b: ShipmentInput): boolean {
  return shipmentKey(a) === shipmentKey(b);
}

function shipmentKey(s: ShipmentInput): string {
  const place = (p: ShipmentInput['from']): string => `${p.city.trim().toLowerCase()}|${p.postal_code ?? ''}`;
  return JSON.stringify([
    place(s.from),
    place(s.to),
    s.parcel.weight_grams,
    s.parcel.length_cm,
    s.parcel.width_cm,
    s.parcel.height_cm,
    s.declared_value_kopecks ?? 0,
    s.carriers ? [...s.carriers].sort() : null,
  ]);
}
