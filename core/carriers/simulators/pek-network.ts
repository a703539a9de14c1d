// The PEK simulator's branch network and tariffs: which towns have a PEK branch (every town of the built-in
// table with a main index and at least PEK_MIN_POPULATION people: PEK runs a couple of hundred branches, not
// a thousand), their warehouse GUIDs, each department's limits, and the deterministic sandbox prices —
// heavy-freight terminals: cheap per kg for heavy cargo, dearer for small parcels than the parcel carriers,
// slower, with door delivery on top. Not PEK's real tariff.
import { createHash } from 'node:crypto';
import { allCities, type City } from '../../locations/cities';
import { zoneOf } from './tariff-model';

export const PEK_MIN_POPULATION = 50_000;

/** A deterministic GUID-shaped id (PEK's warehouse ids are GUIDs). */
export function simGuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface PekWarehouse {
  id: string;
  city: City & { postalCode: string };
  /** The recipient postal code the address carried (a sandbox trigger among them), when any. */
  postalCode: string | null;
}

let byCity: Map<City, PekWarehouse> | undefined;

function network(): Map<City, PekWarehouse> {
  if (byCity) return byCity;
  byCity = new Map();
  for (const city of allCities()) {
    if (!city.postalCode || city.population < PEK_MIN_POPULATION) continue;
    byCity.set(city, {
      id: simGuid(`pek-warehouse ${city.name} ${city.region}`),
      city: { ...city, postalCode: city.postalCode },
      postalCode: null,
    });
  }
  return byCity;
}

let byId: Map<string, PekWarehouse> | undefined;

/** A warehouse of the network by its GUID. */
export function pekWarehouseById(id: string): PekWarehouse | null {
  byId ??= new Map([...network().values()].map((w) => [w.id, w]));
  return byId.get(id) ?? null;
}

/** The main warehouse of the branch serving `city`, or null when PEK has no branch there. */
export function pekWarehouseOf(city: City | null): PekWarehouse | null {
  return city ? (network().get(city) ?? null) : null;
}

/**
 * Per-department limits as /branches/nearestdepartments/ describes them (maxWeightOnePlace, maxDimension;
 * 0 = no limit): modelled, since PEK publishes none company-wide. Terminals take pallets up to 5 t a place
 * and 12 m; door delivery by truck up to 3 t and 6 m; avia 80 kg and 1.2 m; EasyWay parcels 30 kg and 1.2 m.
 */
export const SIM_LIMITS = {
  terminal: { maxWeightKg: 5000, maxDimensionM: 12 },
  door: { maxWeightKg: 3000, maxDimensionM: 6 },
  1: { maxWeightKg: 80, maxDimensionM: 1.2 },
  3: { maxWeightKg: 5000, maxDimensionM: 12 },
  12: { maxWeightKg: 30, maxDimensionM: 1.2 },
} as const;

export interface SimCargo {
  length: number;
  width: number;
  height: number;
  volume: number;
  weight: number;
}

/** Product factor and day offset: avia costs 3× and is faster; EasyWay is a little cheaper than LTL. */
const PRODUCTS: Readonly<Record<number, { factor: number; days: number }>> = {
  3: { factor: 1, days: 2 },
  1: { factor: 3, days: -1 },
  12: { factor: 0.9, days: 2 },
};

/** Chargeable kg: actual, or 200 kg per m³ when the cargo is bulkier (a common LTL density). */
function chargeableKg(cargos: readonly SimCargo[]): number {
  const weight = cargos.reduce((s, c) => s + c.weight, 0);
  const volume = cargos.reduce((s, c) => s + (c.volume || c.length * c.width * c.height), 0);
  return Math.max(weight, volume * 200);
}

export interface SimPekPrice {
  /** Kopecks, whole roubles or 50 kopecks. */
  transporting: number;
  delivery: number;
  insurance: number;
  days: [number, number];
}

export function pekPrice(
  type: number,
  from: PekWarehouse,
  toPostal: string,
  cargos: readonly SimCargo[],
  door: boolean,
  insuranceRoubles: number,
): SimPekPrice {
  const zone = zoneOf(from.city.postalCode, toPostal);
  const p = PRODUCTS[type] ?? PRODUCTS[3]!;
  const kg = chargeableKg(cargos);
  // 390 ₽ minimum plus a per-kg rate growing with distance: heavy cargo is cheap per kg.
  const roubles = (390 + kg * (5 + 2.5 * zone)) * p.factor;
  const transporting = Math.round((roubles * 100) / 50) * 50;
  const delivery = door ? Math.round(((450 + kg * 1.5) * 100) / 50) * 50 : 0;
  const insurance = Math.round(insuranceRoubles * 0.3); // 0.3 % of the value, in kopecks
  const min = Math.max(1, zone + p.days + (door ? 1 : 0));
  return { transporting, delivery, insurance, days: [min, min + 2] };
}
