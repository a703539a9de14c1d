// The Boxberry simulator's directory (ListCitiesFull, ListCities): every city of the built-in table with a main
// index, under Boxberry's documented code for Москва ("68", protocols.md §3.4) and stable made-up codes
// otherwise, with Boxberry's flags, plus the villages and settlements Boxberry delivers to, so the list has
// the real row count (audit B5: "thousands of rows"). Which towns have pickup points, reception or courier
// delivery is modelled on size: Boxberry is in most towns but not all, so small towns have neither, some have
// pickup points only, and fewer take parcels in (`Reception`) than hand them out.
import { allCities, type City } from '../../locations/cities';

export interface SimBoxberryCity {
  code: string;
  city: City & { postalCode: string };
  pickupPoint: boolean;
  /** Boxberry takes shops' parcels here (`Reception` 1): a town a sender can ship from. */
  reception: boolean;
  courier: boolean;
  /** A village or settlement outside the city table (District, Prefix of its own). */
  locality: { district: string; prefix: string } | null;
}

/** Populations from which the simulated Boxberry has pickup points / takes parcels / delivers by courier. */
export const PICKUP_POPULATION = 30_000;
export const RECEPTION_POPULATION = 50_000;
export const COURIER_POPULATION = 150_000;
/** Villages and settlements listed besides the table's towns: ~3,000 rows in all, ~2 MB escaped. */
export const LOCALITY_ROWS = 1_900;
/** Indexes a courier town's couriers serve above its main one: one per this many people. */
const PEOPLE_PER_INDEX = 10_000;
/** The federal cities' own index ranges (Russian Post): their couriers serve all of them. */
const CITY_INDEX_RANGES: ReadonlyMap<string, readonly [number, number]> = new Map([
  ['Москва', [101000, 129999]],
  ['Санкт-Петербург', [190000, 199999]],
]);

interface Directory {
  cities: readonly SimBoxberryCity[];
  byCode: ReadonlyMap<string, SimBoxberryCity>;
  /** Index → the courier town or village whose couriers serve it. */
  courierIndexes: ReadonlyMap<string, SimBoxberryCity>;
  /** The federal cities' index ranges. */
  ranges: ReadonlyArray<{ from: number; to: number; city: SimBoxberryCity }>;
}

let directory: Directory | undefined;

const VILLAGES = [
  'Александровка',
  'Ивановка',
  'Михайловка',
  'Николаевка',
  'Покровское',
  'Никольское',
  'Сосновка',
  'Берёзовка',
  'Петровка',
  'Васильевка',
  'Дмитриевка',
  'Андреевка',
  'Знаменка',
  'Вознесенское',
  'Троицкое',
  'Успенка',
  'Богородское',
  'Спасское',
  'Георгиевка',
  'Воскресенское',
  'Новосёлки',
  'Садовый',
  'Луговое',
  'Степное',
  'Озёрки',
];
const DISTRICTS = ['Советский', 'Ленинский', 'Кировский', 'Пролетарский', 'Красногвардейский', 'Заволжский'];
const PREFIXES = ['с', 'д', 'п', 'рп'];

function build(): Directory {
  const cities: SimBoxberryCity[] = [];
  const byCode = new Map<string, SimBoxberryCity>();
  const courierIndexes = new Map<string, SimBoxberryCity>();
  const ranges: Array<{ from: number; to: number; city: SimBoxberryCity }> = [];
  const kladrs = new Set<string>();
  const capitals = new Map<string, City & { postalCode: string }>();
  let next = 1000;
  const add = (entry: SimBoxberryCity): void => {
    cities.push(entry);
    byCode.set(entry.code, entry);
  };
  for (const c of allCities()) {
    if (!c.postalCode) continue;
    const city = { ...c, postalCode: c.postalCode };
    kladrs.add(c.kladrId);
    if (!capitals.has(c.region)) capitals.set(c.region, city);
    const code = c.name === 'Москва' && !byCode.has('68') ? '68' : String(next++);
    const entry: SimBoxberryCity = {
      code,
      city,
      pickupPoint: c.population >= PICKUP_POPULATION,
      reception: c.population >= RECEPTION_POPULATION,
      courier: c.population >= COURIER_POPULATION,
      locality: null,
    };
    add(entry);
    if (!entry.courier) continue;
    const range = CITY_INDEX_RANGES.get(c.name);
    if (range) ranges.push({ from: range[0], to: range[1], city: entry });
    const main = Number(c.postalCode);
    for (let i = 0; i <= Math.ceil(c.population / PEOPLE_PER_INDEX); i++) {
      const index = String(main + i).padStart(6, '0');
      if (!courierIndexes.has(index)) courierIndexes.set(index, entry);
    }
  }
  // Villages: each region's capital lends its coordinates and an index block of its own (+500…).
  const regions = [...capitals.values()];
  for (let n = 0; n < LOCALITY_ROWS; n++) {
    const capital = regions[n % regions.length]!;
    const round = Math.floor(n / regions.length);
    const name = VILLAGES[(n * 7 + round) % VILLAGES.length]!;
    const kladr = `${capital.kladrId.slice(0, 2)}${String(100 + round).padStart(3, '0')}000${String(1 + (n % 900)).padStart(3, '0')}00`;
    if (kladrs.has(kladr)) continue;
    kladrs.add(kladr);
    const postalCode = String(Number(capital.postalCode) + 500 + round).padStart(6, '0');
    const entry: SimBoxberryCity = {
      code: String(next++),
      city: { ...capital, name, postalCode, population: 800, fiasId: '', kladrId: kladr },
      pickupPoint: false,
      reception: false,
      courier: n % 3 === 0,
      locality: { district: DISTRICTS[n % DISTRICTS.length]!, prefix: PREFIXES[n % PREFIXES.length]! },
    };
    add(entry);
    if (entry.courier && !courierIndexes.has(postalCode)) courierIndexes.set(postalCode, entry);
  }
  return { cities, byCode, courierIndexes, ranges };
}

function get(): Directory {
  directory ??= build();
  return directory;
}

export function boxberryCities(): readonly SimBoxberryCity[] {
  return get().cities;
}

export function boxberryCityByCode(code: string): SimBoxberryCity | undefined {
  return get().byCode.get(code);
}

/**
 * The courier town an index belongs to: its own block of indexes (the main one and one more per 10,000 people
 * above it, the federal cities their whole ranges), never a whole region's first three digits (audit: "ZipCheck
 * calls any index served whose first three digits match").
 */
export function courierCityForZip(zip: string): SimBoxberryCity | undefined {
  if (!/^\d{6}$/.test(zip)) return undefined;
  const d = get();
  const own = d.courierIndexes.get(zip);
  if (own) return own;
  const n = Number(zip);
  return d.ranges.find((r) => n >= r.from && n <= r.to)?.city;
}
