// How the PEK simulator reads an address string, the way PEK asks for it: «страна, регион, район, населенный
// пункт, улица, дом, квартира», comma-separated, nothing that is not part of the address (glook/pecom-php-sdk
// `generated/Model/AddressBlock.php`; audit P5). The country comes first, so an address that starts with a
// postal code or a town is malformed. The one liberty: a postal code right after the country, which RateDesk
// sends (PEK_POSTAL_CODE_IN_ADDRESS) and PEK's order has no slot for — unverified, modelled as accepted.
// The town must be named (a region before it picks among namesakes); an index alone places nothing. What
// follows the town is the street and house. The table is the simulator's whole world: a well-formed address
// naming no town of it is simply not found.
import { findCity, type City } from '../../locations/cities';

export interface PekPlace {
  city: City | null;
  /** The postal code written after the country (sandbox triggers are read from it). */
  postalCode: string | null;
  /** Something follows the town: a street (and house). */
  street: boolean;
}

export type PekGeocode = { ok: true; place: PekPlace } | { ok: false; message: string };

const COUNTRY = /^(россия|российская федерация|рф)$/i;
const INDEX = /^\d{6}$/;

/** The documented order, as the simulator says it when an address does not follow it. */
export const PEK_ADDRESS_ORDER = 'страна, регион, район, населенный пункт, улица, дом';

export function geocodePekAddress(address: string): PekGeocode {
  const parts = address
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const malformed = (why: string): PekGeocode => ({
    ok: false,
    message: `${why}; передавайте адрес в последовательности: ${PEK_ADDRESS_ORDER}`,
  });
  if (parts.length === 0 || !COUNTRY.test(parts[0]!)) return malformed('Не указана страна');
  const rest = parts.slice(1);
  const postalCode = rest[0] !== undefined && INDEX.test(rest[0]) ? rest[0] : null;
  const names = postalCode ? rest.slice(1) : rest;
  if (names.some((p) => INDEX.test(p))) return malformed('Индекс не на своём месте');
  if (names.length === 0) return malformed('Не указан населенный пункт');
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!.replace(/^(г\.?|город)\s+/i, '');
    // The part before the town qualifies it: a region that is not the town's places nothing.
    const city = findCity(i > 0 ? `${name}, ${names[i - 1]}` : name, postalCode);
    if (city?.postalCode) return { ok: true, place: { city, postalCode, street: i < names.length - 1 } };
  }
  return { ok: true, place: { city: null, postalCode, street: false } };
}
