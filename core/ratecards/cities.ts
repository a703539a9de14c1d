// The city table as rate cards see it: one key per city, equal for every spelling the city field accepts
// ("спб", "Питер", "Санкт-Петербург"), and the city's main postal code for prefix rows when no code was given.
// The only module of core/ratecards that knows where the table lives.
import { findCity } from '../locations/cities';

export interface CityRef {
  /** Name and region: two towns of one name (Киров, Киров, Калужская обл) are two cities. */
  key: string;
  postalCode: string | null;
}

export interface CityLookup {
  find(query: string, postalHint?: string | null): CityRef | null;
}

export const tableCities: CityLookup = {
  find(query, postalHint) {
    const city = findCity(query, postalHint);
    return city ? { key: `${city.name}|${city.region}`, postalCode: city.postalCode } : null;
  },
};

/** The parser's view: the key of a city name, or null when the city field would not find it. */
export function cityKey(name: string, cities: CityLookup = tableCities): string | null {
  return cities.find(name)?.key ?? null;
}
