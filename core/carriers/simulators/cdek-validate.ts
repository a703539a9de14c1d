// What the CDEK simulator accepts in a calculator body (tarifflist and tariff alike), refused in CDEK's error
// vocabulary (protocols.md §2.8), and which places it recognises.
import { ALL_TRIGGER_CODES } from '../sandbox-triggers';
import { cdekCityByCode, isKnownPostalCode } from './cdek-cities';
import type { SimPackage } from './cdek-tariffs';

/** The other carriers' sandbox codes are recognised too, so one carrier's trigger never knocks CDEK out. */
const SANDBOX_POSTAL_CODES: ReadonlySet<string> = ALL_TRIGGER_CODES;

// ---- tarifflist request validation, in CDEK's error vocabulary (protocols.md §2.8) ----

export interface SimLocation {
  code?: number;
  postal_code?: string;
  country_code?: string;
}

interface TariffListRequest {
  /** Contract type; CDEK defaults to 1 (online store) when it is left out (protocols.md §2.4). */
  type: 1 | 2;
  from: SimLocation;
  to: SimLocation;
  packages: SimPackage[];
}

type Validation = ({ ok: true } & TariffListRequest) | { ok: false; code: string; message: string };

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function empty(field: string): Validation {
  return { ok: false, code: 'v2_field_is_empty', message: `Не заполнено обязательное поле [${field}]` };
}

function badType(field: string): Validation {
  return { ok: false, code: 'v2_invalid_value_type', message: `Invalid value type in [${field}] field` };
}

export function validateTariffListRequest(body: unknown): Validation {
  if (!isRecord(body)) return { ok: false, code: 'v2_invalid_format', message: 'Неверный формат запроса' };
  if (body.type !== undefined && body.type !== 1 && body.type !== 2) return badType('type');

  const locations: SimLocation[] = [];
  for (const field of ['from_location', 'to_location'] as const) {
    const loc = body[field];
    if (loc === undefined || loc === null) return empty(field);
    if (!isRecord(loc)) return badType(field);
    if (loc.code !== undefined && !Number.isInteger(loc.code)) return badType(`${field}.code`);
    if (loc.postal_code !== undefined && typeof loc.postal_code !== 'string')
      return badType(`${field}.postal_code`);
    if (loc.country_code !== undefined && typeof loc.country_code !== 'string')
      return badType(`${field}.country_code`);
    if (loc.code === undefined && loc.postal_code === undefined) return empty(`${field}.code`);
    locations.push({
      code: loc.code as number | undefined,
      postal_code: loc.postal_code as string | undefined,
      country_code: loc.country_code as string | undefined,
    });
  }

  const packages = body.packages;
  if (packages === undefined || packages === null || (Array.isArray(packages) && packages.length === 0))
    return empty('packages');
  if (!Array.isArray(packages)) return badType('packages');
  const parsed: SimPackage[] = [];
  for (const [i, p] of packages.entries()) {
    if (!isRecord(p)) return badType(`packages[${i}]`);
    if (p.weight === undefined || p.weight === null) return empty(`packages[${i}].weight`);
    if (!Number.isInteger(p.weight) || (p.weight as number) <= 0) return badType(`packages[${i}].weight`);
    const pkg: SimPackage = { weight: p.weight as number };
    for (const dim of ['length', 'width', 'height'] as const) {
      const v = p[dim];
      if (v === undefined || v === null) continue;
      if (!Number.isInteger(v) || (v as number) <= 0) return badType(`packages[${i}].${dim}`);
      pkg[dim] = v as number;
    }
    parsed.push(pkg);
  }
  return {
    ok: true,
    type: body.type === 2 ? 2 : 1,
    from: locations[0]!,
    to: locations[1]!,
    packages: parsed,
  };
}

export function postalCodeOf(loc: SimLocation): string | null {
  if (loc.postal_code !== undefined) return loc.postal_code;
  return loc.code !== undefined ? (cdekCityByCode(loc.code)?.mainPostalCode ?? null) : null;
}

/** The postal code the price model works with, or null when CDEK would not recognise the location. */
export function recognise(loc: SimLocation): string | null {
  if (loc.country_code !== undefined && loc.country_code.toUpperCase() !== 'RU') return null;
  if (loc.postal_code !== undefined) {
    // Another carrier's trigger (999902…) must still get CDEK rates, or that trigger would fail every carrier.
    const known = isKnownPostalCode(loc.postal_code) || SANDBOX_POSTAL_CODES.has(loc.postal_code);
    return known ? loc.postal_code : null;
  }
  return loc.code !== undefined ? (cdekCityByCode(loc.code)?.mainPostalCode ?? null) : null;
}
