// Our place → DPD's `cityRequest` (protocols.md §6.2), and the choice among candidates when DPD calls a
// name ambiguous (verified-2026 §6.4: the Fault lists them in pickupDups/deliveryDups).
//  - a postal code given → `index` (DPD finds the settlement itself);
//  - a city of the built-in table → `cityName` + `regionCode` + `countryCode` RU, the region code being the
//    first two digits of the city's KLADR code (the subject of the federation, as DPD numbers regions: the
//    captured request sends regionCode beside cityName, verified-2026 §6.2);
//  - anything else → `cityName` (+ the region typed after a comma, when the table knows that region).
// A name that is still ambiguous (a town and a village of one name in one region) comes back as a Fault with
// candidates; pickCandidate() chooses with the table, and the adapter retries once with the chosen cityId.
import { allCities, normaliseCityName, type City } from '../../locations/cities';
import type { LocationResolver } from '../../locations/resolver';
import type { CarrierFailure, QuoteLocation } from '../types';
import type { DpdCity } from './request';
import type { DpdCityIndex } from './schema';

/** What the adapter knows of one end of the route: what to send, and what to choose candidates by. */
export interface DpdPlace {
  request: DpdCity;
  /** The region wanted (KLADR subject code), when known. */
  regionCode: number | null;
  /** The table's city, when it is one (its main index picks among candidates of one region). */
  city: City | null;
  /** Postal code given with the request. */
  postalCode: string | null;
  typed: string;
}

export type PlaceResult = { ok: true; place: DpdPlace } | { ok: false; failure: CarrierFailure };

export async function locateForDpd(
  resolver: LocationResolver,
  place: QuoteLocation,
  signal: AbortSignal,
): Promise<PlaceResult> {
  const postalCode = place.postalCode?.trim() || null;
  const kladr = await resolver.resolve({ city: place.city, postalCode }, 'kladr_id', { signal });
  const city = kladr.ok ? kladr.city : null;
  const regionCode = kladr.ok ? regionOfKladr(kladr.value) : regionCodeOfTyped(place.city);
  const base = { regionCode, city, postalCode, typed: place.city.trim() };
  if (postalCode) return { ok: true, place: { ...base, request: { index: postalCode } } };
  if (city) {
    return {
      ok: true,
      place: {
        ...base,
        request: { cityName: city.name, regionCode: regionCode ?? undefined, countryCode: 'RU' },
      },
    };
  }
  const name = place.city.split(',')[0]!.trim();
  if (name === '') return { ok: false, failure: { kind: 'city_not_found', detail: '(no city)' } };
  return {
    ok: true,
    place: {
      ...base,
      request: { cityName: name, ...(regionCode !== null ? { regionCode } : {}), countryCode: 'RU' },
    },
  };
}

function regionOfKladr(kladr: string): number | null {
  const code = Number(kladr.slice(0, 2));
  return Number.isInteger(code) && code > 0 ? code : null;
}

const GENERIC_REGION_WORDS = new Set([
  'область',
  'обл',
  'край',
  'республика',
  'респ',
  'автономный',
  'автономная',
  'округ',
  'ао',
  'г',
]);

function regionWords(region: string): string[] {
  return normaliseCityName(region.replace(/[.()/—-]/g, ' '))
    .split(' ')
    .filter((w) => w.length > 1 && !GENERIC_REGION_WORDS.has(w));
}

/** "Кольцово, Новосибирская обл" → 54, through any city of the table in that region; null otherwise. */
export function regionCodeOfTyped(typed: string): number | null {
  const comma = typed.indexOf(',');
  if (comma < 0) return null;
  const wanted = regionWords(typed.slice(comma + 1));
  if (wanted.length === 0) return null;
  const match = allCities().find((c) => {
    const theirs = regionWords(c.region);
    return wanted.every((w) => theirs.some((t) => t.startsWith(w)));
  });
  return match ? regionOfKladr(match.kladrId) : null;
}

/**
 * The candidate meant: only those in the wanted region (when it is known); among them the one whose index
 * range holds the postal code given or the table's main index; else the one town ("г") among villages;
 * else, when a single candidate is left, that one. null when the table cannot settle it: the place is then
 * reported as not found rather than quoted for a namesake.
 */
export function pickCandidate(place: DpdPlace, candidates: readonly DpdCityIndex[]): DpdCityIndex | null {
  let pool = candidates.filter((c) => (c.countryCode ?? 'RU').toUpperCase() === 'RU');
  if (place.regionCode !== null) pool = pool.filter((c) => Number(c.regionCode) === place.regionCode);
  if (pool.length === 0) return null;
  const index = place.postalCode ?? place.city?.postalCode ?? null;
  if (index) {
    const holding = pool.filter(
      (c) => c.indexMin && c.indexMax && c.indexMin <= index && index <= c.indexMax,
    );
    if (holding.length === 1) return holding[0]!;
  }
  const towns = pool.filter((c) => (c.abbreviation ?? '').replace(/\./g, '').trim().toLowerCase() === 'г');
  if (towns.length === 1) return towns[0]!;
  return pool.length === 1 ? pool[0]! : null;
}
