// The CDEK simulator's view of the built-in city table: CDEK city codes for /location/cities and for
// `{code}` locations, and which postal codes it "recognises". Real CDEK knows far more settlements; the
// simulator knows the table's cities, which is what the adapter can ask about anyway.
import { allCities, normaliseCityName } from '../cities/cities';

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

interface Catalogue {
  cities: readonly SimCdekCity[];
  byCode: ReadonlyMap<number, SimCdekCity>;
  byName: ReadonlyMap<string, readonly SimCdekCity[]>;
  postalPrefixes: ReadonlySet<string>;
}

let catalogue: Catalogue | undefined;

function getCatalogue(): Catalogue {
  if (catalogue) return catalogue;
  const cities: SimCdekCity[] = [];
  const byCode = new Map<number, SimCdekCity>();
  const byName = new Map<string, SimCdekCity[]>();
  const postalPrefixes = new Set<string>();
  const used = new Set<number>(DOCUMENTED_CODES.values());
  for (const c of allCities()) {
    if (!c.postalCode) continue; // nothing to price with
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
    postalPrefixes.add(c.postalCode.slice(0, 3));
  }
  catalogue = { cities, byCode, byName, postalPrefixes };
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

/** A postal code is recognised when its first three digits (the sorting centre) belong to a known city. */
export function isKnownPostalCode(postalCode: string): boolean {
  return /^\d{6}$/.test(postalCode) && getCatalogue().postalPrefixes.has(postalCode.slice(0, 3));
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
