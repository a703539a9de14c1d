// Before a quote goes out, each place is checked with the core (issue #9, #17): a city the core does not know
// and no postal code to go by would only come back empty; a city several towns answer to is asked about, never
// sent as the core's guess; a postal code alone, with the city left empty, is enough: its town fills the city.
import { parsePostalCode } from '../../lib/parse';
import { lookupCity } from './city-lookup';
import type { CityLookup } from './city-match';

export type PlaceVerdict =
  /** Go ahead; `city`: the town to fill in for an empty city field (found by its postal code). */
  | { kind: 'ok'; city?: string; lookup?: CityLookup }
  /** Not a place the core knows, and no postal code: the quote is not sent. */
  | { kind: 'unknown'; lookup: CityLookup }
  /** Several places fit: the field asks which. `cityText`: the text to show in the city field first. */
  | { kind: 'unconfirmed'; lookup: CityLookup; cityText?: string }
  /** Nothing to go by (the form's own "enter a city" error says so). */
  | { kind: 'empty' };

/** `known`: the form's last answer about this text, reused when it settles the question (no second call). */
export async function checkPlace(
  city: string,
  postal: string,
  known: CityLookup | null,
): Promise<PlaceVerdict> {
  if (city.trim() === '') {
    const index = parsePostalCode(postal);
    if (!index.ok || index.value === null) return { kind: 'empty' };
    const lookup = await lookupCity(index.value);
    if (lookup.status === 'recognised' && lookup.match)
      return { kind: 'ok', city: lookup.match.name, lookup };
    if (lookup.status === 'unconfirmed') return { kind: 'unconfirmed', lookup, cityText: index.value };
    return { kind: 'empty' };
  }
  const lookup =
    known && known.text === city && known.status === 'recognised' ? known : await lookupCity(city, postal);
  if (lookup.status === 'unconfirmed') return { kind: 'unconfirmed', lookup };
  // A place the table does not know may still be real: with its postal code the quote goes out.
  if (lookup.status === 'unrecognised' && postal.trim() === '') return { kind: 'unknown', lookup };
  return { kind: 'ok', lookup };
}
