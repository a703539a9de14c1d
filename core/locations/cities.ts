// The built-in city table (hflabs/city, see cities-data.ts) and the towns inside Moscow and St Petersburg
// (towns-within.ts): city name → main postal code for carriers that only take indexes, KLADR/FIAS for those
// that key on them, the directory of main indexes the simulators accept, and the town of a postal index.
// Indexes are built once, on first use. What a person typed is ranked into suggestions in city-search.ts.
import { normaliseCityName } from '../contract/city-name';
import { aliasFor } from './aliases';
import { CITY_ROWS } from './cities-data';
import type { CityRow } from './city-row';
import { russianLayoutReading } from './layout';
import { officialRegionName } from './region-names';
import { TOWNS_WITHIN_CITIES, type TownWithin } from './towns-within';

/** The rule lives in core/contract so the desk's city field compares names exactly as the core does. */
export { normaliseCityName };

export interface City {
  name: string;
  /** "Татарстан", "Московская обл", "Краснодарский край", …; "Москва" for Зеленоград. */
  region: string;
  /** The city's main 6-digit index; null for the one city the source lists without one (Аргун). */
  postalCode: string | null;
  population: number;
  lat: number;
  lon: number;
  /** 13-digit KLADR code (Dellin pads it to 25 digits, Boxberry matches on it; protocols.md §9). */
  kladrId: string;
  /** FIAS GUID (CDEK's `fias_guid`; protocols.md §9). A town within a federal city has the city's. */
  fiasId: string;
}

export interface Entry {
  city: City;
  key: string;
  regionKey: string;
}

interface Index {
  /** The table's rows and the towns within federal cities, most populous first. */
  entries: readonly Entry[];
  /** The table's rows only (allCities: the simulators' world, one row per KLADR code). */
  tableEntries: readonly Entry[];
  byName: ReadonlyMap<string, readonly Entry[]>;
  /** Main postal code → the cities listed with it (Хасавюрт and Дербент share one in the source). */
  byPostalCode: ReadonlyMap<string, readonly City[]>;
  /** FIAS GUID, lower case → the city (unique in the source). */
  byFiasId: ReadonlyMap<string, City>;
}

let index: Index | undefined;

function getIndex(): Index {
  if (index) return index;
  const tableEntries = CITY_ROWS.map(toEntry);
  const host = new Map(tableEntries.map((e) => [e.city.name, e.city]));
  const towns = TOWNS_WITHIN_CITIES.map((t) => townEntry(t, host.get(t.within)!));
  // Stable: a town goes after the table's cities of the same population.
  const entries = [...tableEntries, ...towns].sort((a, b) => b.city.population - a.city.population);
  const byName = new Map<string, Entry[]>();
  const byPostalCode = new Map<string, City[]>();
  const byFiasId = new Map<string, City>();
  for (const entry of tableEntries) byFiasId.set(entry.city.fiasId.toLowerCase(), entry.city);
  for (const entry of entries) {
    const list = byName.get(entry.key);
    if (list) list.push(entry);
    else byName.set(entry.key, [entry]);
    const postal = entry.city.postalCode;
    if (postal) byPostalCode.set(postal, [...(byPostalCode.get(postal) ?? []), entry.city]);
  }
  index = { entries, tableEntries, byName, byPostalCode, byFiasId };
  return index;
}

/** The index for the suggestion ranking (city-search.ts); not for other modules. */
export function cityIndex(): Pick<Index, 'entries' | 'byName'> {
  return getIndex();
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

function townEntry(town: TownWithin, host: City): Entry {
  const { name, postalCode, population, lat, lon } = town;
  return {
    city: {
      name,
      region: host.region,
      postalCode,
      population,
      lat,
      lon,
      kladrId: host.kladrId,
      fiasId: host.fiasId,
    },
    key: normaliseCityName(name),
    regionKey: regionKey(host.region),
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
export function regionMatches(entry: Entry, wanted: string): boolean {
  return entry.regionKey.startsWith(wanted) || ` ${entry.regionKey} `.includes(` ${wanted} `);
}

/** "Киров, Калужская обл" → the name and the region key (empty without a comma). */
export function splitQuery(query: string): { name: string; region: string } {
  const comma = query.indexOf(',');
  return {
    name: normaliseCityName(comma >= 0 ? query.slice(0, comma) : query),
    region: comma >= 0 ? regionKey(query.slice(comma + 1)) : '',
  };
}

/**
 * The city a person most likely means. A postal index alone («420111») is the town of that index
 * (citiesOfPostalIndex). "Name, Region" picks among cities of the same name ("Киров, Калужская обл");
 * otherwise a postal hint picks the one whose index shares the longest prefix (at least 3 digits, the
 * sorting-centre part), and without either the most populous wins. A region that matches no region of the
 * table at all ("Москва, Россия") is ignored rather than failing the lookup. Text typed in the Latin layout
 * («Rfpfym») is read as the Russian it was meant to be (layout.ts) when it names nothing as typed.
 */
export function findCity(query: string, postalHint?: string | null): City | null {
  const index = postalIndexIn(query);
  if (index) return citiesOfPostalIndex(index).cities[0] ?? null;
  const found = findNamed(query, postalHint);
  if (found) return found;
  const reading = russianLayoutReading(query);
  return reading === undefined ? null : findNamed(reading, postalHint);
}

function findNamed(query: string, postalHint?: string | null): City | null {
  const { entries, byName } = getIndex();
  const { name: typed, region } = splitQuery(query);
  const alias = aliasFor(typed);
  const name = alias ? normaliseCityName(alias) : typed;
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
  return (pickByPostalHint(pool, postalHint) ?? pool[0]!).city;
}

/** Among namesakes, the one whose index shares the most digits with the hint (at least 3), if one does. */
export function pickByPostalHint<T extends { city: City }>(
  pool: readonly T[],
  postalHint: string | null | undefined,
): T | undefined {
  if (pool.length < 2 || !postalHint || !/^\d{6}$/.test(postalHint)) return undefined;
  let best: T | undefined;
  let bestLength = 2;
  for (const entry of pool) {
    const length = commonPrefixLength(entry.city.postalCode ?? '', postalHint);
    if (length > bestLength) {
      best = entry;
      bestLength = length;
    }
  }
  return best;
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

/** Six digits typed as a city («420111», «420 111»), or undefined for any other text. */
export function postalIndexIn(text: string): string | undefined {
  const digits = text.replace(/[\s\u00a0]/g, '');
  return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * Indexes of the two federal cities: every index from 101… to 129… is Moscow's and from 190… to 199… St
 * Petersburg's (Почта России's allocation), though the table lists one main index for each. A town within
 * the city (Зеленоград 124…, Пушкин 19660…) still wins when its own index shares more digits.
 */
const FEDERAL_RANGES: ReadonlyArray<{ city: string; from: number; to: number }> = [
  { city: 'Москва', from: 101, to: 129 },
  { city: 'Санкт-Петербург', from: 190, to: 199 },
];

export interface PostalArea {
  /** The towns the index may belong to, likeliest first. */
  cities: readonly City[];
  /** True when the first is the one (an unambiguous answer); false when several fit equally. */
  confident: boolean;
}

/**
 * The town of a postal index, by the table's main indexes: the town whose main index it is; else the towns
 * whose main index shares the most leading digits with it (at least 3: the sorting-centre area), the area's
 * own centre (main index «…000», or a federal city for its range) before the others. The table holds only
 * main indexes, so an address's index («420111») is placed by its area: Казань (420000) rather than
 * Иннополис (420500). When two towns fit equally (Наб. Челны, Нижнекамск and Альметьевск for 423100), the
 * answer is not confident and the city field asks which.
 */
export function citiesOfPostalIndex(postalIndex: string): PostalArea {
  const { entries, byPostalCode } = getIndex();
  const exact = byPostalCode.get(postalIndex) ?? [];
  if (exact.length > 0) return { cities: exact, confident: exact.length === 1 };
  const area = postalIndex.slice(0, 3);
  const range = FEDERAL_RANGES.find((r) => Number(area) >= r.from && Number(area) <= r.to);
  const scored: { city: City; shared: number; centre: boolean }[] = [];
  for (const { city } of entries) {
    if (!city.postalCode) continue;
    const isRangeCity = range?.city === city.name;
    const shared = Math.max(commonPrefixLength(city.postalCode, postalIndex), isRangeCity ? 3 : 0);
    if (shared < 3) continue;
    scored.push({ city, shared, centre: isRangeCity || city.postalCode === `${area}000` });
  }
  // Population order is kept among equals (entries are sorted by it).
  scored.sort((a, b) => b.shared - a.shared || Number(b.centre) - Number(a.centre));
  const [first, second] = scored;
  const confident =
    first !== undefined &&
    (second === undefined || first.shared > second.shared || (first.centre && !second.centre));
  return { cities: scored.map((s) => s.city), confident };
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

/**
 * Every city of the table, most populous first. The towns within federal cities are not listed: they share
 * their city's KLADR and FIAS codes, and the simulators build one place per code from this list.
 */
export function allCities(): readonly City[] {
  return getIndex().tableEntries.map((e) => e.city);
}

/** The towns within Moscow and St Petersburg (towns-within.ts) as the table's City objects. */
export function townsWithinCities(): readonly City[] {
  const table = new Set(getIndex().tableEntries);
  return getIndex()
    .entries.filter((e) => !table.has(e))
    .map((e) => e.city);
}
