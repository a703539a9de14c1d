// What the quote form says under each row: the place row's city errors and notices (with the places to
// choose from), and the parcel row's errors and the light-weight question (issue #17).
import type { CitySuggestion } from '../../../../core/desk/contract';
import type { ScopedT } from '../../i18n';
import type { CityLookup } from './city-match';
import { CityNotice, type FormMessage } from './FormMessages';
import type { FieldErrors, PlaceFieldErrors } from './field-errors';
import type { DraftField } from './logic';

export type Side = 'from' | 'to';

export function cityKeys(side: Side): { city: 'fromCity' | 'toCity'; postal: 'fromPostal' | 'toPostal' } {
  return side === 'from'
    ? { city: 'fromCity', postal: 'fromPostal' }
    : { city: 'toCity', postal: 'toPostal' };
}

export interface PlaceMessageArgs {
  t: ScopedT<'quote'>;
  errors: Partial<Record<DraftField, string>>;
  /** What the core said about the text on screen, per side (null while it has not answered). */
  lookupOf: (side: Side) => CityLookup | null;
  onPick: (side: Side, s: CitySuggestion) => void;
}

/** The choices a notice about `lookup` offers, and what the notice is about. */
function noticeOf(lookup: CityLookup | null): { kind: 'unknown' | 'namesakes' | 'index' } | null {
  if (lookup?.status === 'unrecognised') return { kind: 'unknown' };
  if (lookup?.status === 'unconfirmed')
    return { kind: lookup.match?.match === 'postal' ? 'index' : 'namesakes' };
  return null;
}

export function placeMessages({ t, errors, lookupOf, onPick }: PlaceMessageArgs): FormMessage[] {
  const out: FormMessage[] = [];
  for (const side of ['from', 'to'] as const) {
    const k = cityKeys(side);
    const label = side === 'from' ? t('from') : t('to');
    const lookup = lookupOf(side);
    const notice = noticeOf(lookup);
    const picks = (choicesOnly: boolean) =>
      lookup && notice ? (
        <CityNotice
          text={lookup.text}
          kind={notice.kind}
          closest={lookup.closest}
          onPick={(s) => onPick(side, s)}
          testId={`${side}-city-notice`}
          choicesOnly={choicesOnly}
        />
      ) : null;
    if (errors[k.city]) {
      // The error, and the places to choose from (the closest known ones, or the namesakes).
      out.push({
        id: `${side}-city-error`,
        label,
        text: (
          <>
            {errors[k.city]} {picks(true)}
          </>
        ),
        tone: 'error',
      });
    } else if (notice) {
      out.push({ id: `${side}-city-notice`, label, tone: 'notice', text: picks(false) });
    }
    if (errors[k.postal]) {
      out.push({
        id: `${side}-postal-error`,
        label: `${label}, ${t('postal').toLowerCase()}`,
        text: errors[k.postal],
        tone: 'error',
      });
    }
  }
  return out;
}

export interface ParcelMessageArgs {
  t: ScopedT<'quote'>;
  ti: ScopedT<'quoteInput'>;
  tx: ScopedT<'quoteExt'>;
  errors: Partial<Record<DraftField, string>>;
  /** A weight in grams the form asks about before quoting (10 g or less), or null. */
  light: number | null;
  onKeepLight: () => void;
  onLightIsKg: () => void;
}

export function parcelMessages({
  t,
  ti,
  tx,
  errors,
  light,
  onKeepLight,
  onLightIsKg,
}: ParcelMessageArgs): FormMessage[] {
  const out: FormMessage[] = [];
  const dimError = errors.length ?? errors.width ?? errors.height;
  if (errors.weight) out.push({ id: 'weight-error', label: t('weight'), text: errors.weight, tone: 'error' });
  else if (light !== null) {
    out.push({
      id: 'weight-light',
      label: t('weight'),
      tone: 'notice',
      text: (
        <span data-testid="weight-light">
          {ti('light.text', { grams: light })}{' '}
          <button type="button" className="link-button" onClick={onKeepLight} data-testid="weight-light-keep">
            {ti('light.keep', { grams: light })}
          </button>
          {' · '}
          <button type="button" className="link-button" onClick={onLightIsKg} data-testid="weight-light-kg">
            {ti('light.kg', { grams: light })}
          </button>
        </span>
      ),
    });
  }
  if (dimError) out.push({ id: 'dims-error', label: t('dims'), text: dimError, tone: 'error' });
  if (errors.count)
    out.push({ id: 'place-count-error', label: tx('count'), text: errors.count, tone: 'error' });
  return out;
}

/** A further place's row (#21): its weight, sides and count, each named with the place («Место 2, вес»). */
export function morePlaceMessages(p: {
  t: ScopedT<'quote'>;
  tx: ScopedT<'quoteExt'>;
  place: number;
  errors: PlaceFieldErrors;
}): FormMessage[] {
  const { t, tx, place, errors } = p;
  const name = tx('place', { n: place });
  const out: FormMessage[] = [];
  const dimError = errors.length ?? errors.width ?? errors.height;
  if (errors.weight)
    out.push({
      id: `place-${place}-weight-error`,
      label: `${name}, ${t('weight').toLowerCase()}`,
      text: errors.weight,
      tone: 'error',
    });
  if (dimError)
    out.push({
      id: `place-${place}-dims-error`,
      label: `${name}, ${t('dims')}`,
      text: dimError,
      tone: 'error',
    });
  if (errors.count)
    out.push({
      id: `place-${place}-count-error`,
      label: `${name}, ${tx('count').toLowerCase()}`,
      text: errors.count,
      tone: 'error',
    });
  return out;
}

/** The row of what is asked besides the boxes (#21): declared value, cash on delivery, the ship date. */
export function askMessages(p: {
  t: ScopedT<'quote'>;
  tx: ScopedT<'quoteExt'>;
  errors: FieldErrors;
}): FormMessage[] {
  const { t, tx, errors } = p;
  const out: FormMessage[] = [];
  if (errors.value)
    out.push({ id: 'declared-value-error', label: t('value'), text: errors.value, tone: 'error' });
  if (errors.cod) out.push({ id: 'cod-error', label: tx('cod'), text: errors.cod, tone: 'error' });
  if (errors.shipDate)
    out.push({ id: 'ship-date-error', label: tx('shipDate'), text: errors.shipDate, tone: 'error' });
  return out;
}
