// The form's field errors in words, once a quote was attempted: what the draft could not be read as, a
// city the core does not know (and no postal code to go by), a doubtful city not yet confirmed.
import type { ScopedT } from '../../i18n';
import type { CityLookup } from './city-lookup';
import { cityKeys, type Side } from './form-messages';
import type { BuiltShipment, DraftError, DraftField, QuoteDraft } from './logic';
import { placeFieldId, type PlaceField } from './places-draft';

/** A further place's errors in words. */
export type PlaceFieldErrors = Partial<Record<PlaceField, string>>;
/** The form's errors in words; `more`: the further places', by their index in the draft's `more`. */
export type FieldErrors = Partial<Record<DraftField, string>> & { more?: PlaceFieldErrors[] };

/** The fields in reading order: the first wrong one gets the cursor. */
export const FIELD_ORDER: DraftField[] = [
  'fromCity',
  'fromPostal',
  'toCity',
  'toPostal',
  'weight',
  'length',
  'width',
  'height',
  'count',
  'value',
  'cod',
  'shipDate',
];

/** The words for a wrong box field (the first box's or a further place's). */
function placeError(f: PlaceField, e: DraftError, t: ScopedT<'quote'>, tx: ScopedT<'quoteExt'>): string {
  if (f === 'weight') return t('err.weight');
  if (f === 'count') return e === 'tooMany' ? tx('err.tooMany') : tx('err.count');
  return t('err.dim');
}

export function fieldErrors(p: {
  built: BuiltShipment;
  draft: QuoteDraft;
  unknownCity: Record<Side, boolean>;
  unconfirmed: Record<Side, boolean>;
  cities: Record<Side, CityLookup | null>;
  t: ScopedT<'quote'>;
  ti: ScopedT<'quoteInput'>;
  tx: ScopedT<'quoteExt'>;
}): FieldErrors {
  const { built, draft, t, ti, tx } = p;
  const errors: FieldErrors = {};
  const wrong = built.ok ? {} : built.errors;
  for (const f of FIELD_ORDER) {
    const e = wrong[f];
    if (!e) continue;
    errors[f] =
      f === 'fromCity' || f === 'toCity'
        ? t('err.city')
        : f === 'fromPostal' || f === 'toPostal'
          ? t('err.postal')
          : f === 'value'
            ? t('err.value')
            : f === 'cod'
              ? tx('err.cod')
              : f === 'shipDate'
                ? tx(e === 'past' ? 'err.shipPast' : e === 'range' ? 'err.shipFar' : 'err.shipDate')
                : placeError(f, e, t, tx);
  }
  if (wrong.more) {
    errors.more = wrong.more.map((pe) => {
      const out: PlaceFieldErrors = {};
      for (const [f, e] of Object.entries(pe) as [PlaceField, DraftError][]) out[f] = placeError(f, e, t, tx);
      return out;
    });
  }
  if (p.unknownCity.from && !errors.fromCity && draft.fromPostal.trim() === '')
    errors.fromCity = t('err.cityUnknown');
  if (p.unknownCity.to && !errors.toCity && draft.toPostal.trim() === '')
    errors.toCity = t('err.cityUnknown');
  for (const side of ['from', 'to'] as const) {
    const k = cityKeys(side);
    const l = p.cities[side];
    if (p.unconfirmed[side] && !errors[k.city] && l?.status === 'unconfirmed' && l.text === draft[k.city])
      errors[k.city] = l.match?.match === 'postal' ? ti('err.indexUnconfirmed') : ti('err.cityUnconfirmed');
  }
  return errors;
}

const PLACE_FIELDS: PlaceField[] = ['weight', 'length', 'width', 'height', 'count'];

/**
 * The element the cursor goes to after a failed attempt: the first wrong field in reading order (cities,
 * the first box, the further places, value, COD, the date), or a blocked city (unknown or not confirmed).
 */
export function firstInvalidField(
  wrong: BuiltShipment,
  blocked: { from: boolean; to: boolean },
): { field: DraftField } | { id: string } | null {
  const errors = wrong.ok ? null : wrong.errors;
  const isWrong = (f: DraftField): boolean =>
    Boolean(errors?.[f]) || (f === 'fromCity' && blocked.from) || (f === 'toCity' && blocked.to);
  for (const f of FIELD_ORDER) {
    if (f === 'value') {
      // The further places come between the first box and the value, as on screen.
      for (const [i, pe] of (errors?.more ?? []).entries()) {
        const bad = PLACE_FIELDS.find((pf) => pe[pf]);
        if (bad) return { id: placeFieldId(i + 2, bad) };
      }
    }
    if (isWrong(f)) return { field: f };
  }
  return null;
}
