// Asks the core about a city the clerk typed (cities:search) and reads its verdict (city-match.ts).
import type { CitySuggestion } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import { parsePostalCode } from '../../lib/parse';
import { readLookup, type CityLookup } from './city-match';

export type { CityLookup, CityStatus } from './city-match';

/** How many suggestions the field asks for. */
export const SUGGESTIONS = 8;

/** The postal code beside the city, when it is one: the core uses it to pick among namesakes. */
function postalHint(postal: string | undefined): { postal_code: string } | Record<string, never> {
  const parsed = parsePostalCode(postal ?? '');
  return parsed.ok && parsed.value !== null ? { postal_code: parsed.value } : {};
}

export function searchCities(query: string, limit: number, postal?: string): Promise<CitySuggestion[]> {
  if (!hasDeskApi()) return Promise.resolve([]);
  return call((api) => api.cities.search({ query: query.slice(0, 120), limit, ...postalHint(postal) })).catch(
    () => [],
  );
}

/** The full answer for a text (and the postal code beside it). */
export async function lookupCity(text: string, postal?: string): Promise<CityLookup> {
  if (text.trim() === '') return readLookup(text, []);
  return readLookup(text, await searchCities(text, SUGGESTIONS, postal));
}
