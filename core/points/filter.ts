// Which points take the parcel (#21), and how far each is from the town's centre. One rule for every carrier:
// every box within the point's weight and largest box (sides sorted, so a box may be turned), the whole
// shipment within what the point takes at once where the carrier says so, cash on delivery only where the
// point takes it, card only where it has a terminal. A limit the carrier does not publish (null) refuses
// nothing: the point is kept and shows "not published" rather than a made-up figure.
import type { Parcel } from '../contract/v1';
import type { DirectoryPoint } from '../carriers/point-directory';
import { sortedSides } from '../carriers/point-directory';

export interface ParcelNeeds {
  /** Every box, counts expanded. */
  boxes: readonly Parcel[];
  cod: boolean;
  card: boolean;
}

/** Cm compared with this slack, so a 30 cm side meets a 30 cm box given as 300 mm / 10. */
const EPSILON = 1e-9;

/** Whether the point takes every box of the parcel, its payment asks included. */
export function pointTakes(point: DirectoryPoint, needs: ParcelNeeds): boolean {
  if (needs.cod && !point.cod) return false;
  if (needs.card && !point.card) return false;
  let total = 0;
  for (const box of needs.boxes) {
    total += box.weight_grams;
    if (point.max_weight_grams !== null && box.weight_grams > point.max_weight_grams) return false;
    const sides = sortedSides(box.length_cm, box.width_cm, box.height_cm);
    const max = point.max_dimensions_cm;
    if (max !== null) {
      const limit = sortedSides(max[0], max[1], max[2]);
      if (sides.some((side, i) => side > limit[i]! + EPSILON)) return false;
    }
    const volume = sides[0] * sides[1] * sides[2];
    if (point.max_volume_cm3 != null && volume > point.max_volume_cm3 + EPSILON) return false;
    if (
      point.max_dimension_sum_cm != null &&
      sides[0] + sides[1] + sides[2] > point.max_dimension_sum_cm + EPSILON
    )
      return false;
  }
  if (point.max_shipment_weight_grams != null && total > point.max_shipment_weight_grams) return false;
  return true;
}

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance, km, rounded to 10 m. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  const km = 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(km * 100) / 100;
}
