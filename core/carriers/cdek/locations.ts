// Our location (city + optional postal code) → CDEK's location object (protocols.md §2.4, §2.7).
// The calculator accepts a postal code directly, so the network lookup of /location/cities is the last
// resort: postal code given → use it; city in our table → its main postal code; else ask CDEK for the
// city's code.
import type { CarrierFailure, QuoteLocation } from '../types';
import type { CdekApi } from './api';
import { CdekCityList } from './schema';

export type CdekLocation = { postal_code: string; country_code: 'RU'; city: string } | { code: number };

export type LocationResult = { ok: true; location: CdekLocation } | { ok: false; failure: CarrierFailure };

/** City codes rarely change; a small bounded cache spares one lookup per quote for repeated cities. */
const CITY_CODE_CACHE_SIZE = 256;

export interface LocationResolver {
  resolve(location: QuoteLocation, signal: AbortSignal): Promise<LocationResult>;
}

export function createLocationResolver(
  api: CdekApi,
  cityPostalCode: (city: string) => string | null,
): LocationResolver {
  const codes = new Map<string, number>();

  async function lookUpCityCode(city: string, signal: AbortSignal): Promise<LocationResult> {
    const key = normaliseCity(city);
    const known = codes.get(key);
    if (known !== undefined) return { ok: true, location: { code: known } };

    const query = new URLSearchParams({ city: city.trim(), country_codes: 'RU', size: '1' });
    const result = await api.get(`/location/cities?${query.toString()}`, signal);
    if (!result.ok) return result;
    const { status, json } = result.response;
    if (status < 200 || status >= 300) {
      return {
        ok: false,
        failure: { kind: 'carrier_error', detail: `CDEK city lookup failed: HTTP ${status}` },
      };
    }
    const parsed = CdekCityList.safeParse(json);
    if (!parsed.success) {
      return {
        ok: false,
        failure: { kind: 'carrier_error', detail: 'CDEK city lookup answered an unexpected body' },
      };
    }
    const first = parsed.data[0];
    if (!first)
      return { ok: false, failure: { kind: 'no_service', detail: `city not found: ${city.trim()}` } };
    if (codes.size >= CITY_CODE_CACHE_SIZE) {
      const oldest = codes.keys().next();
      if (!oldest.done) codes.delete(oldest.value);
    }
    codes.set(key, first.code);
    return { ok: true, location: { code: first.code } };
  }

  return {
    async resolve(location, signal) {
      const city = location.city.trim();
      const postal = location.postalCode ?? cityPostalCode(city);
      if (postal) return { ok: true, location: { postal_code: postal, country_code: 'RU', city } };
      return lookUpCityCode(city, signal);
    },
  };
}

function normaliseCity(city: string): string {
  return city.trim().toLocaleLowerCase('ru-RU').replaceAll('ё', 'е').replace(/\s+/g, ' ');
}
