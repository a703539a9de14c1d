// Our place (city + optional postal code) → CDEK's location object (protocols.md §2.4, §2.7), through the
// location resolver. The calculator takes a postal code directly, so CDEK's own directory is the last resort:
// postal code given → use it; city in the built-in table → its main postal code; else CDEK's city code from
// GET /location/cities, cached by the resolver (in SQLite in the running service).
import type {
  CarrierDirectory,
  DirectoryAnswer,
  DirectoryQuery,
  LocationResolver,
} from '../../locations/resolver';
import { normaliseCityName } from '../../locations/cities';
import type { CarrierFailure, QuoteLocation } from '../types';
import type { CdekApi } from './api';
import { CdekCityList } from './schema';

export type CdekLocation = { postal_code: string; country_code: 'RU'; city: string } | { code: number };

export type LocationResult = { ok: true; location: CdekLocation } | { ok: false; failure: CarrierFailure };

/** Enough candidates to pick the right region among namesakes; the plugin asks for one (protocols.md §2.7). */
export const CITY_LOOKUP_SIZE = 10;

/** GET /location/cities for one name, as the directory asks it (the live check asks the same). */
export function cityLookupPath(city: string): string {
  const params = new URLSearchParams({ city, country_codes: 'RU', size: String(CITY_LOOKUP_SIZE) });
  return `/location/cities?${params.toString()}`;
}

/** CDEK's GET /location/cities as a directory of city codes; `namespace` names the host it asks. */
export function cdekCityDirectory(api: CdekApi, namespace: string): CarrierDirectory {
  return {
    namespace,
    async lookup(query: DirectoryQuery, signal: AbortSignal): Promise<DirectoryAnswer> {
      const result = await api.get(cityLookupPath(query.city), signal);
      if (!result.ok)
        return {
          error: result.failure.kind === 'carrier_error' ? result.failure.detail : 'CDEK city lookup failed',
        };
      const { status, json } = result.response;
      if (status < 200 || status >= 300) return { error: `CDEK city lookup failed: HTTP ${status}` };
      const parsed = CdekCityList.safeParse(json);
      if (!parsed.success) return { error: 'CDEK city lookup answered an unexpected body' };
      const best = pickByRegion(parsed.data, query.region);
      return best ? { found: true, value: String(best.code) } : { found: false };
    },
  };
}

/**
 * Among same-named cities, the one whose region shares a distinctive word with the wanted region ("Калужская
 * область" and CDEK's "Калужская обл."), else CDEK's first (its own ranking, as the official plugin takes it).
 */
function pickByRegion(cities: CdekCityList, region: string | null): CdekCityList[number] | undefined {
  if (region) {
    const words = distinctiveWords(region);
    const match = cities.find((c) => {
      const theirs = distinctiveWords(c.region ?? '');
      return words.some((w) => theirs.includes(w));
    });
    if (match) return match;
  }
  return cities[0];
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

function distinctiveWords(region: string): string[] {
  return normaliseCityName(region.replace(/[.()/—-]/g, ' '))
    .split(' ')
    .filter((w) => w.length > 1 && !GENERIC_REGION_WORDS.has(w));
}

/**
 * The location object for one end of the route. A place neither the table nor CDEK's directory knows is
 * city_not_found, never "no service": the route was never asked about.
 */
export async function locateForCdek(
  resolver: LocationResolver,
  directory: CarrierDirectory,
  place: QuoteLocation,
  signal: AbortSignal,
): Promise<LocationResult> {
  const postal = await resolver.resolve(place, 'postal_code', { signal });
  if (postal.ok) {
    return {
      ok: true,
      location: {
        postal_code: postal.value,
        country_code: 'RU',
        city: postal.city?.name ?? place.city.trim(),
      },
    };
  }
  const code = await resolver.resolve(place, 'cdek_city_code', { directory, signal });
  if (code.ok) return { ok: true, location: { code: Number(code.value) } };
  if (code.kind === 'carrier_error')
    return { ok: false, failure: { kind: 'carrier_error', detail: code.detail } };
  return { ok: false, failure: { kind: 'city_not_found', detail: code.detail } };
}
