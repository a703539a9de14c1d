// Asks the core about a city the clerk typed: its suggestions, whether the text names a known city, and,
// when it does not, the closest known ones (city-match.ts ranks them).
import type { CitySuggestion } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import { candidatePrefixes, rankClosest, recognisedCity } from './city-match';

export type CityStatus = 'empty' | 'pending' | 'recognised' | 'unrecognised';

export interface CityLookup {
  /** The text this answer is about (a late answer for older text is ignored by the caller). */
  text: string;
  status: CityStatus;
  /** The known city the text names (status recognised). */
  match: CitySuggestion | null;
  /** Closest known cities (status unrecognised), best first; may be empty. */
  closest: CitySuggestion[];
}

export function searchCities(query: string, limit: number): Promise<CitySuggestion[]> {
  if (!hasDeskApi()) return Promise.resolve([]);
  return call((api) => api.cities.search({ query: query.slice(0, 120), limit })).catch(() => []);
}

/** Closest known cities for text the core found nothing for (or nothing of that name). */
export async function closestCities(
  text: string,
  found: readonly CitySuggestion[],
): Promise<CitySuggestion[]> {
  const answers = await Promise.all(candidatePrefixes(text).map((p) => searchCities(p, 20)));
  return rankClosest(text, [...found, ...answers.flat()]);
}

/** The full answer for a text: recognised, or not with the closest matches. */
export async function lookupCity(text: string, found?: readonly CitySuggestion[]): Promise<CityLookup> {
  if (text.trim() === '') return { text, status: 'empty', match: null, closest: [] };
  const list = found ?? (await searchCities(text, 8));
  const match = recognisedCity(text, list);
  if (match) return { text, status: 'recognised', match, closest: [] };
  return { text, status: 'unrecognised', match: null, closest: await closestCities(text, list) };
}
