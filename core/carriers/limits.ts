// A carrier's published parcel limits, declared by its adapter, and the check the platform makes before any
// network call: a 900 kg pallet must read "parcel exceeds carrier limits", never "no service on this route".
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

export interface CarrierLimits extends ParcelLimits {
  /** Stricter limits of single services (by the carrier's own service code); the envelope above covers them all. */
  services?: Readonly<Record<string, ParcelLimits>>;
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

/** Services of a carrier whose own limits the parcel fits (all of them when none are declared). */
export function fitsService(limits: CarrierLimits, serviceCode: string, parcel: Parcel): boolean {
  const own = limits.services?.[serviceCode];
  return own === undefined || exceededLimits(own, parcel).length === 0;
}

function kg(grams: number): string {
  return (grams / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });
}
