// The 5Post simulator's catalogue: deterministic points in a realistic subset of big cities (5Post, X5's
// network, is strongest in European Russia and the Urals; here: towns of 250 000 people or more west of
// longitude 61.5°, so Екатеринбург and Челябинск have points and Новосибирск, Омск or Владивосток honestly
// have none), two or three points each, priced cheaply by the shared zone model from a Moscow hub, with 22 %
// VAT (the 2026 rate in 5Post's own examples, verified-2026 §8.6).
// Sandbox triggers: 5Post is never called per quote (prices come from this catalogue), so its trigger codes
// are points planted at those indexes: the no-service ones (999971, 999973, and the shared 999990 and 999999)
// are points without a rate, 999972 a point whose rate cannot be read.
import { allCities } from '../../locations/cities';
import { CARRIER_TRIGGERS, SANDBOX_TRIGGERS } from '../sandbox-triggers';
import { zoneOf } from './tariff-model';

export const POINT_MIN_POPULATION = 250_000;
export const POINT_MAX_LONGITUDE = 61.5;
const HUB_POSTAL_CODE = '101000';

type Json = Record<string, unknown>;

function roubles(kopecks: number): number {
  return kopecks / 100;
}

function rate(rateType: string, zone: number, withVatKopecks: number, extraWithVatKopecks: number): Json {
  // rateValue is without VAT, rounded to the kopeck: the same relation 5Post's fields have.
  return {
    rateType,
    rateTypeCode: rateType === 'HUB_MOSCOW' ? '10' : '20',
    zone: String(zone),
    rateValue: roubles(Math.round(withVatKopecks / 1.22)),
    vat: 22,
    rateValueWithVat: roubles(withVatKopecks),
    rateExtraValue: roubles(Math.round(extraWithVatKopecks / 1.22)),
    rateExtraValueWithVat: roubles(extraWithVatKopecks),
    rateCurrency: 'RUB',
  };
}

function uuid(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `5f05f000-0000-4000-8000-${hex}`;
}

let built: readonly Json[] | undefined;

/** Every point of the simulated catalogue, in a stable order. */
export function fivePostPoints(): readonly Json[] {
  if (built) return built;
  const points: Json[] = [];
  let n = 1;
  for (const city of allCities()) {
    if (!city.postalCode || city.population < POINT_MIN_POPULATION || city.lon > POINT_MAX_LONGITUDE)
      continue;
    const zone = zoneOf(HUB_POSTAL_CODE, city.postalCode);
    const base = 14_900 + zone * 3_500; // 184 ₽ … 359 ₽ with VAT: the cheap one of the sandbox
    const extra = 1_800 + zone * 600;
    const address = (street: string, zip: string) => ({
      zipCode: zip,
      country: 'Россия',
      region: city.region,
      city: city.name,
      street,
      lat: city.lat,
      lng: city.lon,
    });
    const zip = city.postalCode;
    const nearbyZip = String(Number(zip) + 1).padStart(6, '0');
    points.push({
      id: uuid(n++),
      type: 'POSTAMAT',
      name: `OM${String(n).padStart(6, '0')}`,
      fullAddress: `г. ${city.name}, ул. Ленина, 1`,
      address: address('ул. Ленина, 1', nearbyZip),
      localityFiasCode: city.fiasId,
      cellLimits: { maxCellWidth: 410, maxCellHeight: 380, maxCellLength: 640, maxWeight: 15_000_000 },
      rate: [rate('HUB_MOSCOW', zone, base, extra)],
      deliverySL: [{ sl: zone + 3, minimalSl: zone + 1, slCode: '10' }],
      lastMileWarehouse: { id: uuid(900_000 + zone), name: `РЦ зона ${zone}` },
    });
    points.push({
      id: uuid(n++),
      type: 'ISSUE_POINT',
      name: `Пятёрочка ${city.name}`,
      fullAddress: `г. ${city.name}, пр. Мира, 10`,
      address: address('пр. Мира, 10', zip),
      localityFiasCode: city.fiasId,
      cellLimits: { maxCellWidth: 600, maxCellHeight: 600, maxCellLength: 600, maxWeight: 15_000_000 },
      // Two rate types: the adapter takes the cheaper.
      rate: [rate('HUB_MOSCOW', zone, base + 1_050, extra), rate('HUB_REGION', zone, base + 2_000, extra)],
      deliverySL: [{ sl: zone + 3, minimalSl: zone + 2, slCode: '10' }],
    });
    if (city.population >= 1_000_000) {
      points.push({
        id: uuid(n++),
        type: 'TOBACCO',
        name: `Табак ${city.name}`,
        fullAddress: `г. ${city.name}, ул. Гагарина, 5`,
        address: address('ул. Гагарина, 5', zip),
        cellLimits: { maxCellWidth: 360, maxCellHeight: 360, maxCellLength: 360, maxWeight: 5_000_000 },
        rate: [rate('HUB_MOSCOW', zone, base - 400, extra)],
        // The 2020 capture had only `sl` (verified-2026 §8.3): so does this point.
        deliverySL: [{ sl: zone + 4 }],
      });
    }
  }
  const own = CARRIER_TRIGGERS['5post'];
  const unpriced = [own.timeout, own.noService, SANDBOX_TRIGGERS.allTimeout, SANDBOX_TRIGGERS.allNoService];
  for (const zip of unpriced) points.push(triggerPoint(uuid(n++), zip, []));
  points.push(triggerPoint(uuid(n), own.error, [{ rateType: 'HUB_MOSCOW', rateValueWithVat: 'по запросу' }]));
  built = points;
  return points;
}

function triggerPoint(id: string, zip: string, rates: unknown[]): Json {
  return {
    id,
    type: 'ISSUE_POINT',
    name: `Песочница ${zip}`,
    fullAddress: `Песочница ${zip}`,
    address: { zipCode: zip, region: 'Песочница', city: `Песочница ${zip}` },
    cellLimits: { maxCellWidth: 600, maxCellHeight: 600, maxCellLength: 600, maxWeight: 15_000_000 },
    rate: rates,
    deliverySL: [{ sl: 3 }],
  };
}
