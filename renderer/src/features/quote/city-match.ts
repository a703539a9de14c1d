// What the core's suggestions say about the text in a city field. Pure (the caller asks cities:search and
// passes the answer in): unit-tested in Node. Every rule of reading a city — names, short forms, the Latin
// layout, postal indexes, namesakes, the closest names — is the core's (core/locations/city-search.ts); this
// module only reads its verdict.
import { namesPlace, type CitySuggestion } from '../../../../core/desk/contract';

/**
 * - `recognised`: the text names one place (`match`).
 * - `unconfirmed`: it names several (namesakes, an index several towns share): `match` is the likeliest,
 *   `closest` lists them all; the clerk confirms one before a quote goes out.
 * - `unrecognised`: it names none; `closest` holds the nearest known places (maybe none).
 */
export type CityStatus = 'empty' | 'pending' | 'recognised' | 'unconfirmed' | 'unrecognised';

export interface CityLookup {
  /** The text this answer is about (a late answer for older text is ignored by the caller). */
  text: string;
  status: CityStatus;
  match: CitySuggestion | null;
  closest: CitySuggestion[];
}

/** How many near places an unrecognised text offers. */
const CLOSEST_SHOWN = 3;

export function readLookup(text: string, found: readonly CitySuggestion[]): CityLookup {
  if (text.trim() === '') return { text, status: 'empty', match: null, closest: [] };
  const first = found[0];
  if (!first || !namesPlace(first.match))
    return { text, status: 'unrecognised', match: null, closest: found.slice(0, CLOSEST_SHOWN) };
  if (first.confirm === 'ambiguous') {
    const all = found.filter((s) => namesPlace(s.match) && s.confirm === 'ambiguous');
    return { text, status: 'unconfirmed', match: first, closest: all };
  }
  return { text, status: 'recognised', match: first, closest: [] };
}

/** The lookup after the clerk chose `s` for the text (nothing left to ask). */
export function chosen(s: CitySuggestion): CityLookup {
  return { text: s.name, status: 'recognised', match: { ...s, confirm: null }, closest: [] };
}

/**
 * True when the field should show the place's name instead of the text: a short form, a Latin spelling or
 * layout, or a postal index («спб», «Rfpfym», «420111») becomes «Санкт-Петербург», «Казань».
 */
export function replacesText(s: CitySuggestion): boolean {
  return s.match === 'alias' || s.match === 'postal';
}

/**
 * The places a pick that needs confirming is weighed against, the pick first: its namesakes (ambiguous), or
 * the town the text itself names (far: «Зеленоградск» against «Зеленоград»).
 */
export function confirmChoices(pick: CitySuggestion, list: readonly CitySuggestion[]): CitySuggestion[] {
  // The core marks one group per answer as ambiguous (the text's namesakes, or one index's towns).
  const others = list.filter(
    (s) => s !== pick && (pick.confirm === 'ambiguous' ? s.confirm === 'ambiguous' : namesPlace(s.match)),
  );
  return [pick, ...others];
}

/** One key per place for React lists. */
export function placeKey(s: CitySuggestion): string {
  return `${s.name}|${s.region}|${s.postal_code ?? ''}`;
}
