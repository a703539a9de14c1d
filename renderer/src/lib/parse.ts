// What a clerk types, turned into the integers the core takes. Pure (no DOM): unit-tested in Node.
//
// Decimal text is never passed through parseFloat: "1 500,50" ₽ becomes 150050 kopecks by splitting the
// digits at the decimal separator, so there is no 0.1 + 0.2 on the way. Both "," and "." are accepted as
// the decimal separator, and spaces (including the no-break spaces that copying a formatted number brings
// along) as thousands separators.

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

/**
 * Declared value in roubles → kopecks, exactly: "1 500,50" → 150050, "0,5" → 50, "" → 0 (the field is
 * optional). More than two decimals is an error rather than a silent rounding of money.
 */
export function parseRoublesToKopecks(text: string): Parsed<number> {
  if (text.trim() === '') return ok(0);
  const d = splitDecimal(text);
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
