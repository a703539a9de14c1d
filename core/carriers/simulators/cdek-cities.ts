// The CDEK simulator's directory: CDEK city codes for /location/cities and for `{code}` locations, and the
// postal codes it recognises. It is the built-in city table (every city's main index, nothing else: an index
// merely near a known one is refused with v2_*_location_not_recognized, as CDEK refuses an index it does not
// serve) plus a few settlements without city status, because real CDEK knows far more places than the table
// and the adapter must find those through /location/cities.
import { allCities, normaliseCityName, townsWithinCities } from '../../locations/cities';

export interface SimCdekCity {
  code: number;
  city: string;
  region: string;
  mainPostalCode: string;
  postalCodes: string[];
}

/** Codes seen in CDEK SDK tests and READMEs (protocols.md §2.7); every other city gets a made-up one. */
const DOCUMENTED_CODES: ReadonlyMap<string, number> = new Map([
  ['Москва', 44],
  ['Санкт-Петербург', 137],
  ['Новосибирск', 270],
]);

/**
 * Places CDEK serves that the table lacks (no city status): a science town near Novosibirsk and the federal
 * territory by Sochi, with their main indexes.
 */
export const SETTLEMENTS_BEYOND_THE_TABLE: ReadonlyArray<{
  name: string;
  region: string;
  postalCode: string;
}> = [
  { name: 'Кольцово', region: 'Новосибирская область', postalCode: '630559' },
  { name: 'Сириус', region: 'Федеральная территория Сириус', postalCode: '354340' },
];

interface Catalogue {
  cities: readonly SimCdekCity[];
  byCode: ReadonlyMap<number, SimCdekCity>;
  byName: ReadonlyMap<string, readonly SimCdekCity[]>;
  postalCodes: ReadonlySet<string>;
}

let catalogue: Catalogue | undefined;

function getCatalogue(): Catalogue {
  if (catalogue) return catalogue;
  const cities: SimCdekCity[] = [];
  const byCode = new Map<number, SimCdekCity>();
  const byName = new Map<string, SimCdekCity[]>();
  const postalCodes = new Set<string>();
  const used = new Set<number>(DOCUMENTED_CODES.values());
  const places = [
    ...allCities().flatMap((c) => (c.postalCode ? [{ ...c, postalCode: c.postalCode }] : [])),
    ...SETTLEMENTS_BEYOND_THE_TABLE,
    // Зеленоград, Колпино, …: real CDEK lists the towns within Moscow and St Petersburg as cities of their own.
    ...townsWithinCities().flatMap((c) => (c.postalCode ? [{ ...c, postalCode: c.postalCode }] : [])),
  ];
  for (const c of places) {
    // The documented code goes to the most populous city of that name (the table's order); namesakes hash.
    const documented = DOCUMENTED_CODES.get(c.name);
    let code: number;
    if (documented !== undefined && !byCode.has(documented)) {
      code = documented;
    } else {
      code = stableCode(`${c.name}|${c.region}`);
      while (used.has(code)) code += 1; // rare hash clash: probe, in the table's fixed order
      used.add(code);
    }
    const city: SimCdekCity = {
      code,
      city: c.name,
      region: c.region,
      mainPostalCode: c.postalCode,
      postalCodes: [c.postalCode],
    };
    cities.push(city);
    byCode.set(code, city);
    const key = normaliseCityName(c.name);
    byName.set(key, [...(byName.get(key) ?? []), city]);
    postalCodes.add(c.postalCode);
  }
  catalogue = { cities, byCode, byName, postalCodes };
  return catalogue;
}

/** FNV-1a into 10 000…9 999 999: stable across runs and table regenerations, clear of the documented codes. */
function stableCode(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 10_000 + (h % 9_990_000);
}

export function cdekCityByCode(code: number): SimCdekCity | undefined {
  return getCatalogue().byCode.get(code);
}

/** A postal code is recognised when it is the main index of a place in the directory. */
export function isKnownPostalCode(postalCode: string): boolean {
  return getCatalogue().postalCodes.has(postalCode);
}

/** /location/cities filters; each given filter must match. Most populous first, like the table. */
export function findCdekCities(filter: {
  city: string | null;
  code: string | null;
  postalCode: string | null;
}): readonly SimCdekCity[] {
  const cat = getCatalogue();
  let found: readonly SimCdekCity[] =
    filter.city !== null ? (cat.byName.get(normaliseCityName(filter.city)) ?? []) : cat.cities;
  const code = filter.code?.trim();
  if (code !== undefined) found = found.filter((c) => String(c.code) === code);
  const postal = filter.postalCode?.trim();
  if (postal !== undefined) found = found.filter((c) => c.postalCodes.includes(postal));
  return found;
}
