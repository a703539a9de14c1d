// The simulators' price model: deterministic and plausible, not any carrier's real tariff.
// zone (from the postal codes' first two digits, a rough proxy for distance) × weight band, where the
// weight is the larger of actual and volumetric weight.

/** 1 (same region) to 6 (across the country). */
export function zoneOf(fromPostal: string, toPostal: string): number {
  const a = Number(fromPostal.slice(0, 2));
  const b = Number(toPostal.slice(0, 2));
  if (fromPostal.slice(0, 3) === toPostal.slice(0, 3)) return 1;
  const d = Math.abs(a - b);
  if (d <= 3) return 2;
  if (d <= 10) return 3;
  if (d <= 25) return 4;
  if (d <= 45) return 5;
  return 6;
}

/** Volumetric weight in grams for a divisor (cm³ per kg): CDEK uses 5000, the post 5000 as well. */
export function volumetricGrams(lengthCm: number, widthCm: number, heightCm: number, divisor = 5000): number {
  return Math.ceil(((lengthCm * widthCm * heightCm) / divisor) * 1000);
}

export function chargeableGrams(weight: number, l: number, w: number, h: number): number {
  return Math.max(weight, volumetricGrams(l, w, h));
}

/**
 * Price in kopecks: a base per zone plus a per-500 g step, scaled by a service factor (express > standard).
 * Whole roubles or 50 kopecks, like real tariff tables.
 */
export function modelPriceKopecks(zone: number, grams: number, factor: number): number {
  const steps = Math.max(1, Math.ceil(grams / 500));
  const base = 19_000 + zone * 6_500;
  const perStep = 3_000 + zone * 1_800;
  const raw = (base + (steps - 1) * perStep) * factor;
  return Math.round(raw / 50) * 50;
}

/** Transit days for a zone: [min, max], with an offset per service (express is faster). */
export function modelDays(zone: number, offset: number): [number, number] {
  const min = Math.max(1, zone + offset);
  return [min, min + 1 + Math.floor(zone / 3)];
}
