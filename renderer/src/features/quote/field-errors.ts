// The form's field errors in words, once a quote was attempted: what the draft could not be read as, a
// city the core does not know (and no postal code to go by), a doubtful city not yet confirmed.
import type { ScopedT } from '../../i18n';
import type { CityLookup } from './city-lookup';
import { cityKeys, type Side } from './form-messages';
import type { BuiltShipment, DraftField, QuoteDraft } from './logic';

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
  'value',
];

export function fieldErrors(p: {
  built: BuiltShipment;
  draft: QuoteDraft;
  unknownCity: Record<Side, boolean>;
  unconfirmed: Record<Side, boolean>;
  cities: Record<Side, CityLookup | null>;
  t: ScopedT<'quote'>;
  ti: ScopedT<'quoteInput'>;
}): Partial<Record<DraftField, string>> {
  const { built, draft, t, ti } = p;
  const errors: Partial<Record<DraftField, string>> = {};
  const wrong = built.ok ? {} : built.errors;
  for (const f of FIELD_ORDER) {
    if (!wrong[f]) continue;
    errors[f] =
      f === 'fromCity' || f === 'toCity'
        ? t('err.city')
        : f === 'fromPostal' || f === 'toPostal'
          ? t('err.postal')
          : f === 'weight'
            ? t('err.weight')
            : f === 'value'
              ? t('err.value')
              : t('err.dim');
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
