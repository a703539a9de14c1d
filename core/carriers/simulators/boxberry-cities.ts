// The Boxberry simulator's directory (ListCitiesFull): every city of the built-in table with a main index,
// under Boxberry's documented code for Москва ("68", protocols.md §3.4) and stable made-up codes otherwise,
// with Boxberry's flags. Which cities have pickup points or courier delivery is modelled on size: Boxberry
// is in most towns but not all, so small towns have neither and some have pickup points only.
import { allCities, type City } from '../../locations/cities';

export interface SimBoxberryCity {
  code: string;
  city: City & { postalCode: string };
  pickupPoint: boolean;
  courier: boolean;
}

/** Populations from which the simulated Boxberry has pickup points / courier delivery in a town. */
export const PICKUP_POPULATION = 30_000;
export const COURIER_POPULATION = 150_000;

interface Directory {
  cities: readonly SimBoxberryCity[];
  byCode: ReadonlyMap<string, SimBoxberryCity>;
  /** First three digits of a courier city's main index → that city (ZipCheck's courier zones). */
  courierAreas: ReadonlyMap<string, SimBoxberryCity>;
}

let directory: Directory | undefined;

function build(): Directory {
  const cities: SimBoxberryCity[] = [];
  const byCode = new Map<string, SimBoxberryCity>();
  const courierAreas = new Map<string, SimBoxberryCity>();
  let next = 1000;
  for (const c of allCities()) {
    if (!c.postalCode) continue;
    const code = c.name === 'Москва' && !byCode.has('68') ? '68' : String(next++);
    const entry: SimBoxberryCity = {
      code,
      city: { ...c, postalCode: c.postalCode },
      pickupPoint: c.population >= PICKUP_POPULATION,
      courier: c.population >= COURIER_POPULATION,
    };
    cities.push(entry);
    byCode.set(code, entry);
    const area = c.postalCode.slice(0, 3);
    if (entry.courier && !courierAreas.has(area)) courierAreas.set(area, entry);
  }
  return { cities, byCode, courierAreas };
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

/** The courier city whose area (first three digits of its main index) an index lies in. */
export function courierCityForZip(zip: string): SimBoxberryCity | undefined {
  return /^\d{6}$/.test(zip) ? get().courierAreas.get(zip.slice(0, 3)) : undefined;
}
