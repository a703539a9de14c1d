// A carrier's published parcel limits, declared by its adapter, and the check the platform makes before any
// network call: a 900 kg pallet must read "parcel exceeds carrier limits", never "no service on this route".
// Since #21 a shipment has several places: the parcel limits hold for each place, the shipment limits
// (places, total weight) for all of them together.
import type { Parcel } from '../contract/v1';

export interface ParcelLimits {
  maxWeightGrams: number;
  /** Longest side. */
  maxLengthCm?: number;
  /** Length + width + height. */
  maxSumOfSidesCm?: number;
  /** Longest side + girth (2 × the other two sides), the way EMS and courier parcels are measured. */
  maxLengthPlusGirthCm?: number;
}

/** What a carrier takes in one shipment (one order, one waybill), all places together. */
export interface ShipmentLimits {
  /** Places (boxes) in one shipment, counts expanded; absent: none published (the carrier's answer decides). */
  maxPlaces?: number;
  /** The weight of all places together. */
  maxShipmentWeightGrams?: number;
}

export interface CarrierLimits extends ParcelLimits, ShipmentLimits {
  /** Stricter limits of single services (by the carrier's own service code); the envelope above covers them all. */
  services?: Readonly<Record<string, ParcelLimits & ShipmentLimits>>;
}

/**
 * What about `parcel` is over `limits`, in words for the /v1 reason ("weight 900 kg over 30 kg"); empty when
 * it fits. The check is against the carrier's widest envelope: a parcel that fits some service goes out.
 */
export function exceededLimits(limits: ParcelLimits, parcel: Parcel): string[] {
  const problems: string[] = [];
  const sides = [parcel.length_cm, parcel.width_cm, parcel.height_cm].sort((a, b) => b - a);
  if (parcel.weight_grams > limits.maxWeightGrams) {
    problems.push(`weight ${kg(parcel.weight_grams)} kg over ${kg(limits.maxWeightGrams)} kg`);
  }
  if (limits.maxLengthCm !== undefined && sides[0]! > limits.maxLengthCm) {
    problems.push(`longest side ${sides[0]} cm over ${limits.maxLengthCm} cm`);
  }
  const sum = sides[0]! + sides[1]! + sides[2]!;
  if (limits.maxSumOfSidesCm !== undefined && sum > limits.maxSumOfSidesCm) {
    problems.push(`sum of sides ${sum} cm over ${limits.maxSumOfSidesCm} cm`);
  }
  const girth = sides[0]! + 2 * (sides[1]! + sides[2]!);
  if (limits.maxLengthPlusGirthCm !== undefined && girth > limits.maxLengthPlusGirthCm) {
    problems.push(`length plus girth ${girth} cm over ${limits.maxLengthPlusGirthCm} cm`);
  }
  return problems;
}

/**
 * What about a shipment of `places` is over `limits`: each place against the parcel limits ("place 2: weight
 * 40 kg over 31.5 kg"; a single place in the words of exceededLimits), then the places and their total weight
 * against the shipment limits. Empty when it fits.
 */
export function exceededShipmentLimits(
  limits: ParcelLimits & ShipmentLimits,
  places: readonly Parcel[],
): string[] {
  const problems: string[] = [];
  places.forEach((place, i) => {
    const over = exceededLimits(limits, place);
    problems.push(...(places.length === 1 ? over : over.map((p) => `place ${i + 1}: ${p}`)));
  });
  if (limits.maxPlaces !== undefined && places.length > limits.maxPlaces) {
    problems.push(`${places.length} places over ${limits.maxPlaces}`);
  }
  const total = places.reduce((sum, p) => sum + p.weight_grams, 0);
  if (limits.maxShipmentWeightGrams !== undefined && total > limits.maxShipmentWeightGrams) {
    problems.push(`total weight ${kg(total)} kg over ${kg(limits.maxShipmentWeightGrams)} kg`);
  }
  return problems;
}

/** Services of a carrier whose own limits the parcel fits (all of them when none are declared). */
export function fitsService(limits: CarrierLimits, serviceCode: string, parcel: Parcel): boolean {
  return fitsServiceShipment(limits, serviceCode, [parcel]);
}

/** The same for a whole shipment: every place and the shipment's totals within the service's own limits. */
export function fitsServiceShipment(
  limits: CarrierLimits,
  serviceCode: string,
  places: readonly Parcel[],
): boolean {
  const own = limits.services?.[serviceCode];
  return own === undefined || exceededShipmentLimits(own, places).length === 0;
}

function kg(grams: number): string {
  return (grams / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });
}
