// How the desk tells a clerk why carriers gave no rate (#17 item 4). Pure (no DOM, no React): unit-tested
// in Node. One cause is said once: carriers are grouped by kind, so an unknown town is «город не найден» once
// for every carrier that could not find it, and the advice never asks for what the form already holds.
import { normaliseCityName } from '../../../../core/contract/city-name';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import type { UnavailableKind } from '../../../../core/desk/contract';
import type { Lang } from '../../lib/format';
import type { CarrierRun } from './run';

/**
 * neutral: expected, nothing went wrong (over the limits, no service, switched off …); fault: the carrier
 * failed (red); paused: not asked for now, and when it may be asked again is known or near.
 */
export type UnavailableTone = 'neutral' | 'fault' | 'paused';

const TONE: Record<UnavailableKind, UnavailableTone> = {
  no_service: 'neutral',
  not_configured: 'neutral',
  postal_code_required: 'neutral',
  carrier_error: 'fault',
  timeout: 'fault',
  unknown_carrier: 'neutral',
  disabled: 'neutral',
  city_not_found: 'neutral',
  exceeds_limits: 'neutral',
  temporarily_skipped: 'paused',
  carrier_busy: 'paused',
};

export function toneOf(kind: UnavailableKind): UnavailableTone {
  return TONE[kind];
}

/** Worth asking again at once: the carrier failed or was not asked for now (not a verdict on this parcel). */
export function isTransient(kind: UnavailableKind): boolean {
  return TONE[kind] !== 'neutral';
}

/**
 * The order reasons are listed in: what the clerk can fix in the form first, then verdicts on the parcel or
 * route, then the carriers' own trouble, then set-up.
 */
const ORDER: readonly UnavailableKind[] = [
  'city_not_found',
  'postal_code_required',
  'exceeds_limits',
  'no_service',
  'timeout',
  'carrier_error',
  'temporarily_skipped',
  'carrier_busy',
  'not_configured',
  'disabled',
  'unknown_carrier',
];

/** What to suggest, by what the form does not hold yet. */
export type Advice = 'cityName' | 'cityOrPostal' | 'postalTo' | 'postalFrom' | 'postalCheck';

export interface Failed {
  code: string;
  kind: UnavailableKind;
  detail?: string | undefined;
}

export interface ReasonGroup {
  kind: UnavailableKind;
  /** Carrier codes, in the order they were given. */
  codes: string[];
  /** city_not_found: the town the carriers named, as the clerk typed it, when they all named the same one. */
  city: string | null;
  advice: Advice | null;
}

type Place = QuoteRequestInput['from'];
const hasPostal = (p: Place): boolean => (p.postal_code ?? '').trim() !== '';

/** Which typed town a carrier's detail names («Нетгородово», «DPD: …» names none). */
function namedSides(details: readonly (string | undefined)[], s: QuoteRequestInput): Place[] {
  const said = new Set(details.filter((d): d is string => !!d).map(normaliseCityName));
  return [s.to, s.from].filter((p) => said.has(normaliseCityName(p.city)));
}

function cityAdvice(
  group: readonly Failed[],
  s: QuoteRequestInput | null,
): Pick<ReasonGroup, 'city' | 'advice'> {
  if (!s) return { city: null, advice: null };
  const named = namedSides(
    group.map((f) => f.detail),
    s,
  );
  const sides = named.length > 0 ? named : [s.to, s.from];
  const city = named.length === 1 ? named[0]!.city.trim() : null;
  // A postal code already typed is not asked for again: only the name is left to check.
  return { city, advice: sides.some((p) => !hasPostal(p)) ? 'cityOrPostal' : 'cityName' };
}

function postalAdvice(s: QuoteRequestInput | null): Advice | null {
  if (!s) return null;
  if (!hasPostal(s.to)) return 'postalTo';
  if (!hasPostal(s.from)) return 'postalFrom';
  return 'postalCheck';
}

/** The carriers of a run that gave no rate. */
export function failedOf(carriers: readonly CarrierRun[]): Failed[] {
  return carriers.flatMap((c) =>
    c.state === 'unavailable' && c.kind ? [{ code: c.code, kind: c.kind, detail: c.detail }] : [],
  );
}

/** Carriers that gave no rate, one group per cause, causes in ORDER. */
export function groupUnavailable(
  failed: readonly Failed[],
  shipment: QuoteRequestInput | null,
): ReasonGroup[] {
  const out: ReasonGroup[] = [];
  for (const kind of ORDER) {
    const group = failed.filter((f) => f.kind === kind);
    if (group.length === 0) continue;
    const codes = [...new Set(group.map((f) => f.code))];
    if (kind === 'city_not_found') out.push({ kind, codes, ...cityAdvice(group, shipment) });
    else if (kind === 'postal_code_required')
      out.push({ kind, codes, city: null, advice: postalAdvice(shipment) });
    else out.push({ kind, codes, city: null, advice: null });
  }
  return out;
}

/** Every carrier the run asked gave no rate, and at least one of them may answer if asked again. */
export function worthRepeating(failed: readonly Pick<Failed, 'kind'>[], rateCount: number): boolean {
  return rateCount === 0 && failed.some((f) => isTransient(f.kind));
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** «14:32:05», this machine's clock: until when a skipped carrier rests (a cool-down is often half a minute). */
export function formatTimeOfDay(ms: number, lang: Lang, timeZone?: string): string {
  const key = `${lang}|${timeZone ?? ''}`;
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang === 'ru' ? 'ru-RU' : 'en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    timeFormats.set(key, f);
  }
  return f.format(new Date(ms));
}
