// The built-in city table (hflabs/city, see cities-data.ts): city name → main postal code for carriers
// that only take indexes, KLADR/FIAS for those that key on them, the directory of main indexes the simulators
// accept, and prefix search for the UI. Indexes are built once, on first use.
import { normaliseCityName } from '../contract/city-name';
import { aliasFor, cyrillicReading } from './aliases';
import { CITY_ROWS } from './cities-data';
import type { CityRow } from './city-row';
import { officialRegionName } from './region-names';

/** The rule lives in core/contract so the desk's city field compares names exactly as the core does. */
export { normaliseCityName };

export interface City {
  name: string;
  /** "Татарстан", "Московская обл", "Краснодарский край", … */
  region: string;
  /** The city's main 6-digit index; null for the one city the source lists without one (Аргун). */
  postalCode: string | null;
  population: number;
  lat: number;
  lon: number;
  /** 13-digit KLADR code (Dellin pads it to 25 digits, Boxberry matches on it; protocols.md §9). */
  kladrId: string;
  /** FIAS GUID (CDEK's `fias_guid`; protocols.md §9). */
  fiasId: string;
}

interface Entry {
  city: City;
  key: string;
  regionKey: string;
}

interface Index {
  /** In population order, most populous first (the order of CITY_ROWS). */
  entries: readonly Entry[];
  byName: ReadonlyMap<string, readonly Entry[]>;
  /** Main postal code → the cities listed with it (Хасавюрт and Дербент share one in the source). */
  byPostalCode: ReadonlyMap<string, readonly City[]>;
  /** FIAS GUID, lower case → the city (unique in the source). */
  byFiasId: ReadonlyMap<string, City>;
}

let index: Index | undefined;

function getIndex(): Index {
  if (index) return index;
  const entries = CITY_ROWS.map(toEntry);
  const byName = new Map<string, Entry[]>();
  const byPostalCode = new Map<string, City[]>();
  const byFiasId = new Map<string, City>();
  for (const entry of entries) {
    byFiasId.set(entry.city.fiasId.toLowerCase(), entry.city);
    const list = byName.get(entry.key);
    if (list) list.push(entry);
    else byName.set(entry.key, [entry]);
    const postal = entry.city.postalCode;
    if (postal) byPostalCode.set(postal, [...(byPostalCode.get(postal) ?? []), entry.city]);
  }
  index = { entries, byName, byPostalCode, byFiasId };
  return index;
}

function toEntry(row: CityRow): Entry {
  const [name, sourceRegion, postalCode, population, lat, lon, kladrId, fiasId] = row;
  const region = officialRegionName(sourceRegion);
  return {
    city: { name, region, postalCode, population, lat, lon, kladrId, fiasId },
    key: normaliseCityName(name),
    regionKey: regionKey(region),
  };
}

const REGION_WORDS =
  /(?:^|\s)(?:обл|область|край|респ|республика|ао|аобл|автономный округ|автономная область|г)(?=\s|$)/g;

/** "Московская обл", "Московская область" and "московская" compare equal; so do "Респ Татарстан" and "Татарстан". */
function regionKey(region: string): string {
  return normaliseCityName(region.replace(/[.()/]/g, ' '))
    .replace(REGION_WORDS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A prefix of the region ("калужская" for "Калужская обл") or one of its words ("якутия", "кузбасс"). */
function regionMatches(entry: Entry, wanted: string): boolean {
  return entry.regionKey.startsWith(wanted) || ` ${entry.regionKey} `.includes(` ${wanted} `);
}

/**
 * The city a person most likely means. "Name, Region" picks among cities of the same name
 * ("Киров, Калужская обл"); otherwise a postal hint picks the one whose index shares the longest prefix
 * (at least 3 digits, the sorting-centre part), and without either the most populous wins. A region that
 * matches no region of the table at all ("Москва, Россия") is ignored rather than failing the lookup.
 */
export function findCity(query: string, postalHint?: string | null): City | null {
  const { entries, byName } = getIndex();
  const comma = query.indexOf(',');
  const typed = normaliseCityName(comma >= 0 ? query.slice(0, comma) : query);
  const alias = aliasFor(typed);
  const name = alias ? normaliseCityName(alias) : typed;
  const region = comma >= 0 ? regionKey(query.slice(comma + 1)) : '';
  // The alias first ("Ростов" is Ростов-на-Дону to most people), then a city of exactly that name, so a
  // region or a postal hint can still pick the namesake ("Ростов, Ярославская обл").
  const candidates = [...(byName.get(name) ?? [])];
  if (name !== typed)
    for (const e of byName.get(typed) ?? []) if (!candidates.includes(e)) candidates.push(e);
  if (candidates.length === 0) return null;

  let pool = candidates;
  if (region !== '') {
    const inRegion = candidates.filter((e) => regionMatches(e, region));
    if (inRegion.length > 0) pool = inRegion;
    else if (entries.some((e) => regionMatches(e, region))) return null;
  }
  if (pool.length > 1 && postalHint && /^\d{6}$/.test(postalHint)) {
    let best: Entry | undefined;
    let bestLength = 2;
    for (const entry of pool) {
      const length = commonPrefixLength(entry.city.postalCode ?? '', postalHint);
      if (length > bestLength) {
        best = entry;
        bestLength = length;
      }
    }
    if (best) return best.city;
  }
  return pool[0]!.city;
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The main postal code of a city name ("Name" or "Name, Region"), or null when the table does not know it. */
export function mainPostalCode(name: string): string | null {
  return findCity(name)?.postalCode ?? null;
}

/** How a typed text names a city: its exact name, a short form or Latin spelling, or only a name's start. */
export type CityMatch = 'exact' | 'alias' | 'prefix';

export interface FoundCity {
  city: City;
  match: CityMatch;
}

/**
 * Cities for what a person typed, most populous first (autocomplete): the city an alias stands for
 * ("спб", "Moscow"), cities named exactly so, then names that start with it, in Cyrillic or read from Latin.
 */
export function searchCities(prefix: string, limit = 10): City[] {
  return findCities(prefix, limit).map((f) => f.city);
}

export function findCities(prefix: string, limit = 10): FoundCity[] {
  const wanted = normaliseCityName(prefix);
  if (wanted === '' || limit <= 0) return [];
  const { entries, byName } = getIndex();
  const found: FoundCity[] = [];
  const seen = new Set<City>();
  const add = (city: City, match: CityMatch): void => {
    if (found.length < limit && !seen.has(city)) {
      seen.add(city);
      found.push({ city, match });
    }
  };
  const alias = aliasFor(wanted);
  if (alias) for (const e of byName.get(normaliseCityName(alias)) ?? []) add(e.city, 'alias');
  for (const e of byName.get(wanted) ?? []) add(e.city, 'exact');
  const reading = cyrillicReading(wanted);
  for (const entry of entries) {
    if (found.length >= limit) break;
    if (entry.key.startsWith(wanted) || (reading !== undefined && entry.key.startsWith(reading))) {
      add(entry.city, 'prefix');
    }
  }
  return found;
}

/**
 * The cities whose main postal code this is (most populous first), or an empty list. The simulators' directory
 * of existing indexes: a code no city of the table lists is refused the way each carrier refuses it.
 */
export function citiesByPostalCode(postalCode: string): readonly City[] {
  return getIndex().byPostalCode.get(postalCode.trim()) ?? [];
}

/**
 * The city whose FIAS GUID this is (case-insensitive), or null. Carriers that name a town by its FIAS code
 * (5Post's `localityFiasCode`) are matched through it rather than through a spelling of the name.
 */
export function cityByFiasId(fiasId: string): City | null {
  return getIndex().byFiasId.get(fiasId.trim().toLowerCase()) ?? null;
}

/** Every city of the table, most populous first. */
export function allCities(): readonly City[] {
  return getIndex().entries.map((e) => e.city);
}
