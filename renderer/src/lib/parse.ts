// What a clerk types, turned into the integers the core takes. Pure (no DOM): unit-tested in Node.
//
// Decimal text is never passed through parseFloat: "1 500,50" ₽ becomes 150050 kopecks by splitting the
// digits at the decimal separator, so there is no 0.1 + 0.2 on the way. Both "," and "." are accepted as
// the decimal separator, and spaces (including the no-break spaces that copying a formatted number brings
// along) as thousands separators.
//
// Clerks type the unit too (issue #17): «1,2 кг», «1.2 kg», «1200 г» for a weight, «1500 руб», «1 500 ₽»,
// «1500р» for a value. A unit after the number is read, never an error; a number alone is in the field's
// unit (kilograms, roubles).

import { LIMITS } from './limits';

export type ParseError = 'empty' | 'format' | 'precision' | 'range';
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ParseError };

interface Decimal {
  whole: string;
  fraction: string;
}

const SPACES = /[\s\u00a0\u202f\u2009\u2007']/g;

/** Splits "1 500,50" into {whole: "1500", fraction: "50"}; null for anything that is not a plain decimal. */
export function splitDecimal(text: string): Decimal | null {
  const compact = text.replace(SPACES, '');
  const m = /^(\d*)(?:[.,](\d*))?$/.exec(compact);
  if (!m) return null;
  const whole = m[1] ?? '';
  const fraction = m[2] ?? '';
  if (whole === '' && fraction === '') return null;
  return { whole: whole.replace(/^0+(?=\d)/, '') || '0', fraction };
}

function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}
function fail<T>(error: ParseError): Parsed<T> {
  return { ok: false, error };
}

/** The number and the unit after it («1,2 кг» → «1,2», kg); unit null when the text has none of `units`. */
function splitUnit<U extends string>(
  text: string,
  units: ReadonlyArray<readonly [RegExp, U]>,
): { number: string; unit: U | null } {
  const t = text.trim();
  for (const [pattern, unit] of units) {
    const m = pattern.exec(t);
    if (m) return { number: m[1]!, unit };
  }
  return { number: t, unit: null };
}

// A unit ends the text, after optional spaces, with an optional dot: «1,2 кг», «1200г», «1200 гр.», «1500 руб.».
const unitAfter = (unit: string): RegExp => new RegExp(`^(.*?)[\\s\\u00a0]*(?:${unit})\\.?$`, 'iu');

const WEIGHT_UNITS = [
  [unitAfter('кг|kg|килограмм(?:а|ов)?|kilo(?:gram)?s?'), 'kg'],
  [unitAfter('г|гр|g|gr|грамм(?:а|ов)?|grams?'), 'g'],
] as const;

const ROUBLE_UNITS = [[unitAfter('₽|р|руб|рубл(?:ь|я|ей)|rub|rur|roubles?|rubles?'), 'rub']] as const;

/**
 * Declared value in roubles → kopecks, exactly: "1 500,50" → 150050, "0,5" → 50, "1500 руб" → 150000,
 * "" → 0 (the field is optional). More than two decimals is an error rather than a silent rounding of money.
 */
export function parseRoublesToKopecks(text: string): Parsed<number> {
  if (text.trim() === '') return ok(0);
  const d = splitDecimal(splitUnit(text, ROUBLE_UNITS).number);
  if (!d) return fail('format');
  if (d.fraction.length > 2) return fail('precision');
  if (d.whole.length > 12) return fail('range');
  const kopecks = Number(d.whole) * 100 + Number(d.fraction.padEnd(2, '0'));
  if (kopecks > LIMITS.maxDeclaredValueKopecks) return fail('range');
  return ok(kopecks);
}

/**
 * Weight in kilograms → grams: "1,2" → 1200, "0,35" → 350. A scale may show more than gram precision;
 * such a reading is rounded UP to the next whole gram (carriers bill started units, never less).
 */
export function parseKgToGrams(text: string): Parsed<number> {
  if (text.trim() === '') return fail('empty');
  const d = splitDecimal(text);
  if (!d) return fail('format');
  if (d.whole.length > 7 || d.fraction.length > 9) return fail('range');
  const exact = d.fraction.slice(0, 3).padEnd(3, '0');
  const rest = d.fraction.slice(3);
  let grams = Number(d.whole) * 1000 + Number(exact);
  if (/[1-9]/.test(rest)) grams += 1;
  if (grams <= 0 || grams > LIMITS.maxWeightGrams) return fail('range');
  return ok(grams);
}

/**
 * A weight as a clerk types it → grams: kilograms by default («1,2» → 1200), or with its unit («1,2 кг»,
 * «1.2 kg» → 1200; «1200 г», «1200 g» → 1200). A fraction of a gram is rounded up, as for kilograms.
 */
export function parseWeightToGrams(text: string): Parsed<number> {
  const { number, unit } = splitUnit(text, WEIGHT_UNITS);
  if (unit !== 'g') return parseKgToGrams(number);
  if (number.trim() === '') return fail('empty');
  const d = splitDecimal(number);
  if (!d) return fail('format');
  if (d.whole.length > 10 || d.fraction.length > 6) return fail('range');
  const grams = Number(d.whole) + (/[1-9]/.test(d.fraction) ? 1 : 0);
  if (grams <= 0 || grams > LIMITS.maxWeightGrams) return fail('range');
  return ok(grams);
}

/** A side of the box in centimetres: "30" → 30, "12,5" → 12.5 (at most one decimal, as a ruler reads). */
export function parseCm(text: string): Parsed<number> {
  if (text.trim() === '') return fail('empty');
  const d = splitDecimal(text);
  if (!d) return fail('format');
  if (d.fraction.length > 1) return fail('precision');
  if (d.whole.length > 5) return fail('range');
  const tenths = Number(d.whole) * 10 + Number(d.fraction.padEnd(1, '0'));
  const cm = tenths / 10;
  if (tenths <= 0 || cm > LIMITS.maxDimensionCm) return fail('range');
  return ok(cm);
}

/** A Russian postal code: six digits, or empty (null: let the core look the city's main code up). */
export function parsePostalCode(text: string): Parsed<string | null> {
  const t = text.replace(SPACES, '');
  if (t === '') return ok(null);
  return /^\d{6}$/.test(t) ? ok(t) : fail('format');
}
