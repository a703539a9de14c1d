// A 5Post quote from the stored catalogue (protocols.md §8.2–8.3, verified-2026 §8.3): the points at the
// recipient's index, else in the recipient's city; per point type the cheapest point whose cell takes every
// place (and, for several places, that takes a multi-place order; for cash on delivery, that takes payment);
// at a point the rate of the sender's hub (hub.ts); its price by 5Post's rule (the base rate up to 3 kg of the
// order, the extra rate per kilogram above) plus the insurance and COD fees (fees.ts).
import type { CarrierRate, NotPriced } from '../../contract/quote-ext';
import type { Parcel } from '../../contract/v1';
import type { CarrierFailure } from '../types';
import { codFee, codPaymentAt, insuranceFee, insuredValue } from './fees';
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

export type QuoteResult = { ok: true; rates: CarrierRate[] } | { ok: false; failure: CarrierFailure };

/** What is sent: every place (one cell each), the declared value and the cash on delivery, kopecks. */
export interface FivePostShipment {
  places: readonly Parcel[];
  declaredValueKopecks: number;
  codKopecks: number;
}

/** A shipment of one prepaid, uninsured parcel (the /v1 shape). */
export function oneParcel(parcel: Parcel): FivePostShipment {
  return { places: [parcel], declaredValueKopecks: 0, codKopecks: 0 };
}

interface Offer {
  point: ReadablePoint;
  delivery: number;
  insurance: number;
  /** null: this point collects no payment (cash on delivery not offered there). */
  cod: number | null;
  total: number;
}

/**
 * Rates from the candidate points (already chosen for the destination); `place` names it in reasons, `hub`
 * is the sender's (hub.ts). The order is priced by its whole weight (lapaygroup `TariffsTrait`: «вес заказа»);
 * each place must fit a cell; several places need a point taking multi-place orders
 * (`multiplaceDeliveryAllowed`, guide §3.2). With cash on delivery, per type the cheapest point that collects
 * payment; when none of a type does, that type's rate is still shown, saying COD is not offered there.
 */
export function quoteFromPoints(
  candidates: readonly StoredPoint[],
  shipment: FivePostShipment,
  rule: OverweightRule,
  place: string,
  hub: HubName = DEFAULT_HUB,
): QuoteResult {
  const { places, codKopecks } = shipment;
  const grams = places.reduce((sum, p) => sum + p.weight_grams, 0);
  const insured = insuredValue(shipment.declaredValueKopecks, codKopecks);
  const insurance = insured > 0 ? insuranceFee(insured) : 0;
  const readable = candidates.flatMap((c) => (c.point ? [{ id: c.id, point: c.point }] : []));
  const best = new Map<string, Offer>();
  const bestWithCod = new Map<string, Offer>();
  let priced = 0;
  let fitting = 0;
  for (const { point } of readable) {
    // The catalogue gives a rate per point and hub; the shipper pays its own hub's (audit F6).
    const delivery = hubPrice(point.rates, hub, (r) => priceKopecks(r, grams, rule));
    if (delivery === null) continue;
    priced += 1;
    if (!places.every((p) => fitsCell(point, p))) continue;
    if (places.length > 1 && point.takes?.multiplace === false) continue;
    fitting += 1;
    const payment = codKopecks > 0 ? codPaymentAt(point) : null;
    const cod = codKopecks === 0 ? 0 : payment === null ? null : codFee(codKopecks, payment);
    const offer: Offer = { point, delivery, insurance, cod, total: delivery + insurance + (cod ?? 0) };
    const keep = (map: Map<string, Offer>): void => {
      const current = map.get(point.type);
      if (!current || offer.total < current.total) map.set(point.type, offer);
    };
    keep(best);
    if (cod !== null) keep(bestWithCod);
  }
  if (best.size > 0) {
    const rates = [...best.keys()]
      .sort((a, b) => a.localeCompare(b))
      .map((type): CarrierRate => {
        const offer = bestWithCod.get(type) ?? best.get(type)!;
        const notOffered: NotPriced[] =
          offer.cod === null
            ? [
                {
                  option: 'cod',
                  reason: 'not_offered',
                  detail: `no 5Post ${type} point in ${place} takes payment on receipt`,
                },
              ]
            : [];
        return {
          carrier: FIVEPOST_CARRIER_CODE,
          carrier_name: FIVEPOST_CARRIER_NAME,
          service_code: `${FIVEPOST_CARRIER_CODE}:${type}`,
          service_name: `${TYPE_NAMES[type] ?? `Пункт 5Post (${type})`} (${ESTIMATE_NOTE})`,
          delivery_type: 'pickup_point',
          price_kopecks: offer.total,
          currency: 'RUB',
          days_min: offer.point.days?.min ?? null,
          days_max: offer.point.days?.max ?? null,
          price_type: 'public',
          breakdown: {
            base_kopecks: offer.delivery,
            insurance_kopecks: offer.insurance,
            cod_fee_kopecks: offer.cod,
          },
          ...(notOffered.length > 0 ? { options_not_priced: notOffered } : {}),
          ...(insured > shipment.declaredValueKopecks ? { insured_value_kopecks: insured } : {}),
        };
      });
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
          ? places.length > 1
            ? `no 5Post point in ${place} takes these ${places.length} places`
            : `no 5Post cell in ${place} takes this parcel`
          : `5Post has no rate for this parcel in ${place}`;
  return { ok: false, failure: { kind: 'no_service', detail } };
}
