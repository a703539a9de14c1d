// The resale rule form (#21) as typed, checked as a whole before it is sent: amounts in roubles read exactly
// (never through a float), each problem named in its field, and the contract's own rules (two decimals of a
// percent, min ≤ max, limits on the rounding step) said before the round trip. Pure: unit-tested in Node.
import type { PricingRuleView, PricingSetInput } from '../../../../core/desk/contract';
import { MAX_MARKUP_PERCENT, ROUNDING_STEP_KOPECKS, type Rounding } from '../../../../core/contract/pricing';
import { splitDecimal } from '../../lib/parse';
import { formatRoublesInput, type Lang } from '../../lib/format';

/** The contract's bound of a sum (PricingRule): ten million roubles. */
export const MAX_SUM_KOPECKS = 10_000_000_00;

export interface ResaleDraft {
  /** An account's name; '' for the desk's own quotes. */
  account: string;
  /** A carrier's code; '' for every carrier. */
  carrier: string;
  percent: string;
  add: string;
  packaging: string;
  min: string;
  max: string;
  rounding: Rounding;
}

export type ResaleField = 'percent' | 'add' | 'packaging' | 'min' | 'max';
export type ResaleProblem = 'format' | 'precision' | 'range' | 'percentPrecision' | 'maxBelowMin' | 'step';

export const EMPTY_RESALE: ResaleDraft = {
  account: '',
  carrier: '',
  percent: '',
  add: '',
  packaging: '',
  min: '',
  max: '',
  rounding: 'none',
};

export function resaleDraftOf(r: PricingRuleView, lang: Lang): ResaleDraft {
  const sum = (k: number | null): string => (k === null || k === 0 ? '' : formatRoublesInput(k, lang));
  return {
    account: r.account ?? '',
    carrier: r.carrier ?? '',
    percent: r.markup_percent === 0 ? '' : String(r.markup_percent).replace('.', lang === 'ru' ? ',' : '.'),
    add: sum(r.markup_kopecks),
    packaging: sum(r.packaging_kopecks),
    min: sum(r.min_kopecks),
    max: sum(r.max_kopecks),
    rounding: r.rounding,
  };
}

type Read = { ok: true; value: number | null } | { ok: false; error: ResaleProblem };

/** Roubles → kopecks: "1 234,50", "1234.5", "300 ₽"; '' → null (none). */
export function readRoubles(text: string): Read {
  const t = text.replace(/\s*(₽|руб\.?|р\.?|rub)$/iu, '').trim();
  if (t === '') return { ok: true, value: null };
  const d = splitDecimal(t);
  if (!d) return { ok: false, error: 'format' };
  if (d.fraction.length > 2) return { ok: false, error: 'precision' };
  if (d.whole.length > 10) return { ok: false, error: 'range' };
  const kopecks = Number(d.whole) * 100 + Number(d.fraction.padEnd(2, '0'));
  return kopecks > MAX_SUM_KOPECKS ? { ok: false, error: 'range' } : { ok: true, value: kopecks };
}

/** "15", "12,5", "7.25 %" → the percentage; '' → 0. */
export function readPercent(text: string): Read {
  const t = text.replace(/\s*%$/u, '').trim();
  if (t === '') return { ok: true, value: 0 };
  const d = splitDecimal(t);
  if (!d) return { ok: false, error: 'format' };
  if (d.fraction.length > 2) return { ok: false, error: 'percentPrecision' };
  const hundredths = Number(d.whole) * 100 + Number(d.fraction.padEnd(2, '0'));
  if (hundredths > MAX_MARKUP_PERCENT * 100) return { ok: false, error: 'range' };
  return { ok: true, value: hundredths / 100 };
}

export interface CheckedResale {
  errors: Partial<Record<ResaleField, ResaleProblem>>;
  /** The operation's input; null while anything is wrong. */
  value: PricingSetInput | null;
}

export function checkResale(d: ResaleDraft): CheckedResale {
  const errors: CheckedResale['errors'] = {};
  const read = (field: ResaleField, r: Read): number | null => {
    if (r.ok) return r.value;
    errors[field] = r.error;
    return null;
  };
  const percent = read('percent', readPercent(d.percent)) ?? 0;
  const add = read('add', readRoubles(d.add)) ?? 0;
  const packaging = read('packaging', readRoubles(d.packaging)) ?? 0;
  const min = read('min', readRoubles(d.min));
  const max = read('max', readRoubles(d.max));
  const step = ROUNDING_STEP_KOPECKS[d.rounding];
  if (!errors.min && min !== null && min % step !== 0) errors.min = 'step';
  if (!errors.max && max !== null && max % step !== 0) errors.max = 'step';
  if (!errors.min && !errors.max && min !== null && max !== null && min > max) errors.max = 'maxBelowMin';
  if (Object.keys(errors).length > 0) return { errors, value: null };
  return {
    errors,
    value: {
      account: d.account === '' ? null : d.account,
      carrier: d.carrier === '' ? null : d.carrier,
      markup_percent: percent,
      markup_kopecks: add,
      packaging_kopecks: packaging,
      min_kopecks: min,
      max_kopecks: max,
      rounding: d.rounding,
    },
  };
}

/** Carrier prices the preview shows the customer's price of. */
export const PREVIEW_PRICES_KOPECKS = [25_000, 100_000, 500_000] as const;
