// A live check of one carrier, run by a person before trusting it (`npm run admin -- carriers check CODE`, the
// Carriers screen's «Проверить»): the same protocol client the quotes use, against the endpoint and credentials
// in settings, one step at a time, each timed, each with what to look at when it fails. Each carrier declares
// its own steps (core/carriers/<code>/check.ts); the runner (core/rating/carrier-check.ts) times them, bounds
// them and stops at the first failure, since later steps need what earlier ones proved (a token, a city code).

import type { CHECK_STEP_KINDS } from '../contract/operations/carriers';
import type { CarrierFailure, CarrierOutcome } from './types';

export { CHECK_STEP_KINDS } from '../contract/operations/carriers';

/** What a step proves. The UI words each kind in its own language; `subject` says what exactly was asked. */
export type CheckStepKind = (typeof CHECK_STEP_KINDS)[number];

/** What a step saw when it passed: a person compares these with what the carrier's cabinet shows. */
export interface CheckMeasure {
  /** Bytes of the answer (directories): compared with the HTTP client's cap. */
  bytes?: number;
  /** The cap the answer must stay under (MAX_CARRIER_RESPONSE_BYTES, or a call's own). */
  limitBytes?: number;
  /** Records in the answer (cities, points, terminals, rates). */
  items?: number;
  /** The cheapest price of a route step, in kopecks. */
  cheapestKopecks?: number;
  /**
   * What else it saw, in both UI languages (a token's lifetime, the code a city has); `said()` for what reads
   * the same in both (service codes, ids).
   */
  note?: { ru: string; en: string };
}

/** A note in both languages; one argument when it is data that reads the same in both (codes, ids). */
export function said(ru: string, en: string = ru): { ru: string; en: string } {
  return { ru, en };
}

export interface CarrierCheckStep {
  kind: CheckStepKind;
  /** What the step asks, in the carrier's own words: "POST /oauth/token", "ListCitiesFull", "Москва → Казань". */
  subject: string;
  /** What to look at when this step fails, in both UI languages (the carrier's known pitfalls). */
  hint: { ru: string; en: string };
  /**
   * This step's own bound, where it must be longer than the runner's default (5Post's first route check
   * downloads the whole catalogue, paced to 5Post's limits). A bound given to the runner wins over it.
   */
  timeoutMs?: number;
  /** Resolves with what it saw; throws (any Error, its message the carrier's answer) when the step fails. */
  run(signal: AbortSignal): Promise<CheckMeasure>;
}

/** A failure as a step's error: the carrier's own words for a carrier error, else the kind and its detail. */
export function failureText(f: CarrierFailure): string {
  if (f.kind === 'carrier_error') return f.detail;
  return 'detail' in f && f.detail ? `${f.kind}: ${f.detail}` : f.kind;
}

/**
 * What a route step saw: the adapter's rates (how many, the cheapest, their service codes as `shown`), or its
 * failure thrown as the step's error.
 */
export function routeMeasure(out: CarrierOutcome, shown: (code: string) => string = (c) => c): CheckMeasure {
  if (!out.ok) throw new Error(failureText(out));
  return {
    items: out.rates.length,
    cheapestKopecks: Math.min(...out.rates.map((r) => r.price_kopecks)),
    note: said(out.rates.map((r) => shown(r.service_code)).join(', ')),
  };
}
