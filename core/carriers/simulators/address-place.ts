// How the PEK and Yandex simulators read a free-text address ("420000, Республика Татарстан, Казань",
// "Москва, ул. Тверская, 1"): the postal code when one is written, and the town of the built-in table the
// address names (or, failing a name, whose main index it is). Real carriers geocode; the table is the
// simulators' whole world, so an address naming no town of it is an address they cannot place.
import { citiesByPostalCode, findCity, type City } from '../../locations/cities';

export interface AddressPlace {
  postalCode: string | null;
  city: City | null;
}

export function placeOfAddress(address: string): AddressPlace {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const postalCode = parts.find((p) => /^\d{6}$/.test(p)) ?? null;
  const names = parts.filter((p) => !/^\d{6}$/.test(p));
  // The town is usually last but one or last ("Москва, ул. Тверская, 1" / "…, Татарстан, Казань"): try each.
  for (const name of [...names].reverse()) {
    const city = findCity(name.replace(/^(г\.?|город)\s+/i, ''), postalCode);
    if (city && city.postalCode) return { postalCode, city };
  }
  const byIndex = postalCode ? (citiesByPostalCode(postalCode)[0] ?? null) : null;
  return { postalCode, city: byIndex };
}
