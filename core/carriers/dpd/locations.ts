// Our place → DPD's `cityRequest` (protocols.md §6.2), and the choice among candidates when DPD calls a
// name ambiguous (verified-2026 §6.4: the Fault lists them in pickupDups/deliveryDups).
//  - a postal code given → `index`, with the table's `cityName` + `regionCode` + `countryCode` beside it
//    (DPD_PLACE_WITH_INDEX below, audit DP5);
//  - a city of the built-in table → `cityName` + `regionCode` + `countryCode` RU, the region code being the
//    first two digits of the city's KLADR code (the subject of the federation, as DPD numbers regions: the
//    captured request sends regionCode beside cityName, verified-2026 §6.2; a terminal fixture gives Москва
//    regionCode 77 and cityCode 77000000000, its KLADR code). That DPD numbers every region so is unverified;
//  - anything else → `cityName` (+ the region typed after a comma, when the table knows that region).
// A name that is still ambiguous (a town and a village of one name in one region) comes back as a Fault with
// candidates; retryPlace() chooses by what the candidates carry, and the adapter retries once.
import { allCities, normaliseCityName, type City } from '../../locations/cities';
import type { LocationResolver } from '../../locations/resolver';
import type { CarrierFailure, QuoteLocation } from '../types';
import type { DpdCity } from './request';
import type { DpdCityIndex } from './schema';

/**
 * What goes beside a postal code (audit DP5). Every client we found sends `cityId`, none sends `index` alone,
 * and DPD's answer to an index it does not know is unverified; the captured live request carries cityName and
 * regionCode beside its cityId, so the WSDL's optional fields travel together. 'index_and_name' sends the
 * index with the built-in table's name and region beside it, so either key can settle the place; a name the
 * table does not know (a typo beside a good index) is not sent. 'index_only' sends the index alone. Resolving
 * a cityId first would need geography2's whole-country city list (getCitiesCashPay), a download per host that
 * our sources do not size. Check it live: docs/carriers.md, DPD, "Live check".
 */
export type DpdIndexPlace = 'index_and_name' | 'index_only';
export const DPD_PLACE_WITH_INDEX: DpdIndexPlace = 'index_and_name';

/** What the adapter knows of one end of the route: what to send, and what to choose candidates by. */
export interface DpdPlace {
  request: DpdCity;
  /** The region wanted (KLADR subject code), when known. */
  regionCode: number | null;
  /** The region wanted by name (the table's, or typed after a comma), for candidates without a regionCode. */
  regionName: string | null;
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
  withIndex: DpdIndexPlace = DPD_PLACE_WITH_INDEX,
): Promise<PlaceResult> {
  const postalCode = place.postalCode?.trim() || null;
  const kladr = await resolver.resolve({ city: place.city, postalCode }, 'kladr_id', { signal });
  const city = kladr.ok ? kladr.city : null;
  const regionCode = kladr.ok ? regionOfKladr(kladr.value) : regionCodeOfTyped(place.city);
  const comma = place.city.indexOf(',');
  const typedRegion = comma < 0 ? '' : place.city.slice(comma + 1).trim();
  const base = {
    regionCode,
    regionName: city?.region ?? (typedRegion || null),
    city,
    postalCode,
    typed: place.city.trim(),
  };
  const named = city
    ? { cityName: city.name, ...(regionCode !== null ? { regionCode } : {}), countryCode: 'RU' as const }
    : null;
  if (postalCode) {
    const request: DpdCity =
      withIndex === 'index_and_name' && named ? { index: postalCode, ...named } : { index: postalCode };
    return { ok: true, place: { ...base, request } };
  }
  if (named) return { ok: true, place: { ...base, request: named } };
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

/** Does the candidate lie in the wanted region? null when neither its code nor its name can tell. */
function inWantedRegion(place: DpdPlace, c: DpdCityIndex): boolean | null {
  if (c.regionCode !== undefined && place.regionCode !== null)
    return Number(c.regionCode) === place.regionCode;
  if (c.regionName && place.regionName) {
    const wanted = regionWords(place.regionName);
    const theirs = regionWords(c.regionName);
    return wanted.length > 0 && wanted.every((w) => theirs.some((t) => t.startsWith(w) || w.startsWith(t)));
  }
  return null;
}

/** A town: `abbreviation` «г», or, when DPD leaves it out, a «г» written into the name («г. Пушкино», «Пушкино г»). */
function isTown(c: DpdCityIndex): boolean {
  if (c.abbreviation !== undefined) return c.abbreviation.replace(/\./g, '').trim().toLowerCase() === 'г';
  return /^г\.?\s|\sг\.?$/i.test(c.cityName ?? '');
}

/**
 * The candidate meant, by whatever the candidates carry (every CityIndex field is optional in DPD's WSDL, and
 * the older ServiceCostFault's carry no cityCode, abbreviation or index range: audit DP8): only those in the
 * wanted region (a candidate that does not say its region is kept); among them the one whose cityCode is the
 * table city's KLADR code; else the one whose index range holds the postal code given or the table's main
 * index; else the one town («г») among villages; else, when a single candidate is left, that one. null when
 * they cannot settle it: the adapter then asks by the postal code, or reports the place as not found, rather
 * than quote a namesake.
 */
export function pickCandidate(place: DpdPlace, candidates: readonly DpdCityIndex[]): DpdCityIndex | null {
  let pool = candidates.filter((c) => (c.countryCode ?? 'RU').toUpperCase() === 'RU');
  pool = pool.filter((c) => inWantedRegion(place, c) !== false);
  if (pool.length === 0) return null;
  const kladr = place.city?.kladrId;
  if (kladr) {
    const same = pool.filter((c) => c.cityCode === kladr.slice(0, 11) || c.cityCode === kladr);
    if (same.length === 1) return same[0]!;
  }
  const index = place.postalCode ?? place.city?.postalCode ?? null;
  if (index) {
    const holding = pool.filter(
      (c) => c.indexMin && c.indexMax && c.indexMin <= index && index <= c.indexMax,
    );
    if (holding.length === 1) return holding[0]!;
  }
  const towns = pool.filter(isTown);
  if (towns.length === 1) return towns[0]!;
  return pool.length === 1 ? pool[0]! : null;
}

/**
 * What to ask DPD with once it has called this end ambiguous: the chosen candidate's cityId; else (nothing to
 * choose by, or the one chosen carries no cityId) the postal code given or the table's main index, which names
 * one settlement, unless that index alone was what DPD just found ambiguous; else null (city_not_found).
 */
export function retryPlace(place: DpdPlace, candidates: readonly DpdCityIndex[]): DpdCity | null {
  const pick = pickCandidate(place, candidates);
  if (pick?.cityId !== undefined) return { cityId: Number(pick.cityId) };
  const index = place.postalCode ?? place.city?.postalCode ?? null;
  const askedByIndexAlone = 'index' in place.request && Object.keys(place.request).length === 1;
  return index && !askedByIndexAlone ? { index } : null;
}
