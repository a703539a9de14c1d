// The getServiceCost2 request (protocols.md §6.2; the captured live request in verified-2026 §6.2, DP-IPOL):
// auth inside <request>, cities as cityId | index | cityName + regionCode + countryCode, weight in kg,
// volume in m³, declared value in roubles. Element order follows the WSDL's xsd:sequence (auth, pickup,
// delivery, selfPickup, selfDelivery, weight, volume, …, declaredValue): DPD's JAX-WS rejects another order.
import type { Parcel } from '../../contract/v1';
import { buildSoapRequest, DPD_CALCULATOR_NS, type XmlTree } from './soap';

/**
 * One end of the route as DPD's `cityRequest` takes it: cityId, index, cityName, regionCode, countryCode, all
 * optional (DP-SVC `cityRequest`). A postal code may carry the name and region beside it (DPD_PLACE_WITH_INDEX,
 * locations.ts), as the captured live request carries cityName and regionCode beside its cityId.
 */
export type DpdCity =
  | { cityId: number }
  | { index: string; cityName?: string; regionCode?: number; countryCode?: 'RU' }
  | { cityName: string; regionCode?: number; countryCode: 'RU' };

export interface DpdCostRequest {
  clientNumber: string;
  clientKey: string;
  pickup: DpdCity;
  delivery: DpdCity;
  /** The recipient collects at a DPD pickup point or terminal (true) or the courier brings it (false). */
  selfDelivery: boolean;
  /** Every place of the shipment: one goes by getServiceCost2, several by getServiceCostByParcels2. */
  places: readonly Parcel[];
  declaredValueKopecks: number;
}

/** The calculator operation a request goes to, and the element its answer comes in. */
export type DpdCostOperation = 'getServiceCost2' | 'getServiceCostByParcels2';

export function operationFor(places: readonly Parcel[]): DpdCostOperation {
  return places.length > 1 ? 'getServiceCostByParcels2' : 'getServiceCost2';
}

/**
 * The sender hands the parcel to a DPD courier (selfPickup=false): DPD is quoted as the express courier it
 * is, door to door or door to pickup point. One constant, said in docs/carriers.md.
 */
export const DPD_SELF_PICKUP = false;

/** Grams → kg as an exact decimal string ("1200" g → "1.2"): no float arithmetic on the wire. */
export function gramsToKg(grams: number): string {
  return decimal(Math.round(grams), 3);
}

/** Whole centimetres (rounded up, as the other carriers) → m³, exactly: 30×20×10 → "0.006". */
export function volumeM3(parcel: Pick<Parcel, 'length_cm' | 'width_cm' | 'height_cm'>): string {
  const cm3 = Math.ceil(parcel.length_cm) * Math.ceil(parcel.width_cm) * Math.ceil(parcel.height_cm);
  return decimal(cm3, 6);
}

/** Kopecks → roubles text ("150000" → "1500"). */
export function kopecksToRoubles(kopecks: number): string {
  return decimal(kopecks, 2);
}

/** An integer scaled down by 10^places, as a plain decimal without trailing zeros. */
function decimal(units: number, places: number): string {
  const scale = 10 ** places;
  const whole = Math.floor(units / scale);
  const frac = String(units % scale)
    .padStart(places, '0')
    .replace(/0+$/, '');
  return frac === '' ? String(whole) : `${whole}.${frac}`;
}

/** In the WSDL's order: cityId, index, cityName, regionCode, countryCode. */
function city(c: DpdCity): XmlTree {
  if ('cityId' in c) return { cityId: c.cityId };
  return {
    ...('index' in c ? { index: c.index } : {}),
    ...(c.cityName !== undefined ? { cityName: c.cityName } : {}),
    ...(c.regionCode !== undefined ? { regionCode: c.regionCode } : {}),
    ...(c.countryCode !== undefined ? { countryCode: c.countryCode } : {}),
  };
}

/**
 * Identical places as one `parcelRequest` with its `quantity`; each in kg and whole centimetres (verified-2026
 * §6.2: "in the by-parcels variant, parcels use kg and cm"; parcelRequest = weight, length, width, height,
 * quantity, in that order, as the JAXB classes of the WSDL and the wsdl2go types have it).
 */
export function parcelsOf(places: readonly Parcel[]): XmlTree[] {
  const groups = new Map<string, { place: Parcel; quantity: number }>();
  for (const p of places) {
    const sides = [p.length_cm, p.width_cm, p.height_cm].map((s) => Math.ceil(s));
    const key = [Math.round(p.weight_grams), ...sides].join('/');
    const group = groups.get(key);
    if (group) group.quantity += 1;
    else groups.set(key, { place: p, quantity: 1 });
  }
  return [...groups.values()].map(({ place, quantity }) => ({
    weight: gramsToKg(place.weight_grams),
    length: Math.ceil(place.length_cm),
    width: Math.ceil(place.width_cm),
    height: Math.ceil(place.height_cm),
    quantity,
  }));
}

/**
 * getServiceCost2 (`serviceCostRequest`: …, weight, volume, …, declaredValue) for one place, or
 * getServiceCostByParcels2 (`serviceCostParcelsRequest`: …, selfDelivery, …, declaredValue, parcel+) for
 * several (protocols.md §6.2; the sequence of the JAXB classes generated from DPD's calculator2 WSDL).
 */
export function buildServiceCostRequest(r: DpdCostRequest): XmlTree {
  const head: XmlTree = {
    auth: { clientNumber: r.clientNumber, clientKey: r.clientKey },
    pickup: city(r.pickup),
    delivery: city(r.delivery),
    selfPickup: DPD_SELF_PICKUP,
    selfDelivery: r.selfDelivery,
  };
  const declared: XmlTree =
    r.declaredValueKopecks > 0 ? { declaredValue: kopecksToRoubles(r.declaredValueKopecks) } : {};
  if (operationFor(r.places) === 'getServiceCostByParcels2') {
    return { request: { ...head, ...declared, parcel: parcelsOf(r.places) } };
  }
  const parcel = r.places[0]!;
  return {
    request: { ...head, weight: gramsToKg(parcel.weight_grams), volume: volumeM3(parcel), ...declared },
  };
}

export function buildServiceCostEnvelope(r: DpdCostRequest): string {
  return buildSoapRequest(operationFor(r.places), DPD_CALCULATOR_NS, buildServiceCostRequest(r));
}
