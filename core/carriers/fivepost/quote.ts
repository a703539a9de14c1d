// A 5Post quote from the stored catalogue (protocols.md §8.2–8.3, verified-2026 §8.3): the points at the
// recipient's index, else in the recipient's city; per point type the cheapest point whose cell takes the
// parcel; at a point the rate of the sender's hub (hub.ts); its price by 5Post's rule (the base rate up to
// 3 kg, the extra rate per kilogram above).
import type { Parcel, Rate } from '../../contract/v1';
import type { CarrierFailure } from '../types';
import { DEFAULT_HUB, hubPrice, type HubName } from './hub';
import type { PointRate, ReadablePoint, StoredPoint } from './points';
import { FIVEPOST } from './descriptor';

export const FIVEPOST_CARRIER_CODE = FIVEPOST.code;
export const FIVEPOST_CARRIER_NAME = FIVEPOST.name;

/** The base rate covers parcels up to this weight (FP-GUIDE; lapaygroup `weight_basic = 3`). */
export const BASE_WEIGHT_GRAMS = 3000;

/**
 * Above the base weight the sources disagree (verified-2026 §8.3): the integration guide charges the extra
 * rate per started kilogram, lapaygroup's SDK pro rata. Setting carriers.5post.overweight chooses.
 */
export type OverweightRule = 'per_started_kg' | 'proportional';

const TYPE_NAMES: Readonly<Record<string, string>> = {
  POSTAMAT: 'Постамат',
  ISSUE_POINT: 'Пункт выдачи',
  TOBACCO: 'Пункт выдачи в табачном магазине',
};

/**
 * Every 5Post rate says in its name that it is an estimate: it is the catalogue's `rate[]`, and the guide
 * (§4.3) saw 5Post's cabinet ask 3.2 times that for SPb → Магадан; the invoiced price comes only after
 * delivery. The rate schema has no field for it (price_type is always "public"), so the name carries it.
 */
export const ESTIMATE_NOTE = 'оценка по каталогу';

/** Price in kopecks for `grams` at one rate; exact integer arithmetic (half-up for the pro-rata kopeck). */
export function priceKopecks(rate: PointRate, grams: number, rule: OverweightRule): number | null {
  const over = Math.ceil(grams) - BASE_WEIGHT_GRAMS;
  if (over <= 0) return rate.baseKopecks;
  // A rate without an extra value says nothing about heavier parcels: not guessed.
  if (rate.extraPerKgKopecks === null) return null;
  const extra =
    rule === 'per_started_kg'
      ? rate.extraPerKgKopecks * Math.ceil(over / 1000)
      : Math.floor((rate.extraPerKgKopecks * over + 500) / 1000);
  return rate.baseKopecks + extra;
}

/** Whether a point's cell takes the parcel (both in any orientation: sides compared longest to longest). */
export function fitsCell(point: ReadablePoint, parcel: Parcel): boolean {
  if (!point.cell) return true;
  const sidesMm = [parcel.length_cm, parcel.width_cm, parcel.height_cm]
    .map((cm) => cm * 10)
    .sort((a, b) => b - a);
  return (
    sidesMm.every((s, i) => s <= point.cell!.sidesMm[i]!) &&
    parcel.weight_grams * 1000 <= point.cell.maxWeightMg
  );
}

export type QuoteResult = { ok: true; rates: Rate[] } | { ok: false; failure: CarrierFailure };

/**
 * Rates from the candidate points (already chosen for the destination); `place` names it in reasons, `hub`
 * is the sender's (hub.ts).
 */
export function quoteFromPoints(
  candidates: readonly StoredPoint[],
  parcel: Parcel,
  rule: OverweightRule,
  place: string,
  hub: HubName = DEFAULT_HUB,
): QuoteResult {
  const readable = candidates.flatMap((c) => (c.point ? [{ id: c.id, point: c.point }] : []));
  const best = new Map<string, { price: number; point: ReadablePoint }>();
  let priced = 0;
  let fitting = 0;
  for (const { point } of readable) {
    // The catalogue gives a rate per point and hub; the shipper pays its own hub's (audit F6).
    const price = hubPrice(point.rates, hub, (r) => priceKopecks(r, parcel.weight_grams, rule));
    if (price === null) continue;
    priced += 1;
    if (!fitsCell(point, parcel)) continue;
    fitting += 1;
    const current = best.get(point.type);
    if (!current || price < current.price) best.set(point.type, { price, point });
  }
  if (best.size > 0) {
    const rates = [...best.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, { price, point }]): Rate => ({
        carrier: FIVEPOST_CARRIER_CODE,
        carrier_name: FIVEPOST_CARRIER_NAME,
        service_code: `${FIVEPOST_CARRIER_CODE}:${type}`,
        service_name: `${TYPE_NAMES[type] ?? `Пункт 5Post (${type})`} (${ESTIMATE_NOTE})`,
        delivery_type: 'pickup_point',
        price_kopecks: price,
        currency: 'RUB',
        days_min: point.days?.min ?? null,
        days_max: point.days?.max ?? null,
        price_type: 'public',
      }));
    return { ok: true, rates };
  }
  const unreadable = candidates.find((c) => c.point === null);
  if (readable.length === 0 && unreadable) {
    return {
      ok: false,
      failure: {
        kind: 'carrier_error',
        detail: `5Post catalogue entry ${unreadable.id} for ${place} could not be read (${unreadable.problem ?? 'unreadable'})`,
      },
    };
  }
  const detail =
    readable.length === 0
      ? `5Post has no pickup point in ${place}`
      : priced === 0
        ? `5Post gives no rate for its points in ${place}`
        : fitting === 0
          ? `no 5Post cell in ${place} takes this parcel`
          : `5Post has no rate for this parcel in ${place}`;
  return { ok: false, failure: { kind: 'no_service', detail } };
}
