// The DPD simulator's geography: every city of the built-in table with a main index, as DPD's CityIndex
// (cityId, regionCode = the KLADR subject code, regionName, abbreviation "г", indexMin/indexMax), plus
// settlements that make names ambiguous the way real DPD geography does: a village Пушкино beside the town in
// Московская область, Кольцово both as the science town by Новосибирск and a village in Калужская область, and a
// village Михайловка beside the town in Волгоградская область. Indexes and ids beyond the table are made up.
import { allCities, normaliseCityName, townsWithinCities } from '../../locations/cities';

export interface SimDpdCity {
  cityId: number;
  cityName: string;
  regionCode: number;
  regionName: string;
  abbreviation: string;
  /** The settlement's index, which the price model works with. */
  index: string;
}

/** Москва's DPD cityId seen in SDK tests and a terminal fixture (protocols.md §6.2); others are made up. */
const DOCUMENTED_IDS: ReadonlyMap<string, number> = new Map([['Москва', 49694102]]);

export const SETTLEMENTS_BEYOND_THE_TABLE: readonly Omit<SimDpdCity, 'cityId'>[] = [
  {
    cityName: 'Пушкино',
    regionCode: 50,
    regionName: 'Московская область',
    abbreviation: 'д',
    index: '141231',
  },
  {
    cityName: 'Кольцово',
    regionCode: 54,
    regionName: 'Новосибирская область',
    abbreviation: 'рп',
    index: '630559',
  },
  {
    cityName: 'Кольцово',
    regionCode: 40,
    regionName: 'Калужская область',
    abbreviation: 'д',
    index: '249855',
  },
  {
    cityName: 'Михайловка',
    regionCode: 34,
    regionName: 'Волгоградская область',
    abbreviation: 'с',
    index: '403325',
  },
];

/**
 * Names whose candidates the simulator lists with only cityId, country, region and name: `abbreviation`,
 * `indexMin` and `indexMax` are optional in DPD's WSDL (CityIndex, DP-GO2) and the older ServiceCostFault has
 * none of them (DP-SVC), so a real answer may lack them (audit DP8). Which names DPD answers so is unknown:
 * this one is the simulator's own choice, so that the sandbox meets both forms.
 */
export const SPARSE_CANDIDATE_NAMES: ReadonlySet<string> = new Set(['михайловка']);

export function listsSparseCandidates(name: string): boolean {
  return SPARSE_CANDIDATE_NAMES.has(normaliseCityName(name));
}

interface Geography {
  byId: ReadonlyMap<number, SimDpdCity>;
  byName: ReadonlyMap<string, readonly SimDpdCity[]>;
  byIndex: ReadonlyMap<string, SimDpdCity>;
}

let geography: Geography | undefined;

function getGeography(): Geography {
  if (geography) return geography;
  const byId = new Map<number, SimDpdCity>();
  const byName = new Map<string, SimDpdCity[]>();
  const byIndex = new Map<string, SimDpdCity>();
  const add = (c: Omit<SimDpdCity, 'cityId'>): void => {
    let id = DOCUMENTED_IDS.get(c.cityName);
    if (id === undefined || byId.has(id)) {
      id = stableId(`${c.cityName}|${c.regionCode}|${c.abbreviation}`);
      while (byId.has(id)) id += 1;
    }
    const city: SimDpdCity = { ...c, cityId: id };
    byId.set(id, city);
    const key = normaliseCityName(c.cityName);
    byName.set(key, [...(byName.get(key) ?? []), city]);
    if (!byIndex.has(c.index)) byIndex.set(c.index, city);
  };
  // The towns within Moscow and St Petersburg are DPD cities of their own, as Зеленоград is in real DPD.
  for (const c of [...allCities(), ...townsWithinCities()]) {
    if (!c.postalCode) continue;
    add({
      cityName: c.name,
      regionCode: Number(c.kladrId.slice(0, 2)),
      regionName: c.region,
      abbreviation: 'г',
      index: c.postalCode,
    });
  }
  for (const s of SETTLEMENTS_BEYOND_THE_TABLE) add(s);
  geography = { byId, byName, byIndex };
  return geography;
}

/** FNV-1a into the range of DPD's long ids (10^8…), clear of the documented one. */
function stableId(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 100_000_000 + (h % 900_000_000);
}

export function dpdCityById(id: number): SimDpdCity | undefined {
  return getGeography().byId.get(id);
}

export function dpdCityByIndex(index: string): SimDpdCity | undefined {
  return getGeography().byIndex.get(index);
}

/** Settlements of that name, in that region when one is given. */
export function findDpdCities(name: string, regionCode: number | null): readonly SimDpdCity[] {
  const all = getGeography().byName.get(normaliseCityName(name)) ?? [];
  return regionCode === null ? all : all.filter((c) => c.regionCode === regionCode);
}
