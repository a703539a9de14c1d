// The body of POST /calculator/calculateprice/ (verified-2026.md §5.2): kg, metres and m³ (sizes with two
// decimals, rounded up, so a parcel never looks smaller than it is; PEK rounds up to hundredths itself), the
// declared value in roubles, the sending branch's local time as a plain string. `cargos[]` has one element per
// place (verified-2026 §5.2; glook `CalculatePriceRequest.php`: «Данные о грузе/грузоместах груза»).
import type { Parcel } from '../../contract/v1';

export interface PekCargo {
  length: number;
  width: number;
  height: number;
  volume: number;
  weight: number;
}

export interface PekCalculateRequest {
  types: number[];
  senderWarehouseId: string;
  isPickUp: false;
  isDelivery: boolean;
  receiverWarehouseId?: string;
  delivery?: { address: string };
  plannedDateTime: string;
  cargos: PekCargo[];
  isInsurance: boolean;
  isInsurancePrice?: number;
  currencyCode: '643';
}

/**
 * The door leg without a street (RateDesk's requests never carry one). PEK prices delivery by the coordinates
 * its geocoder finds for `delivery.address` (glook `CalculatorCalculateprice.php`), and asks for an address
 * down to the house (AddressBlock.php); what it does with a town alone is not published (audit P5,
 * unverified). `town`: ask with the town's address, priced to wherever PEK places the town, and read PEK's
 * refusal as "no door rate" (mapper.ts, PEK_DOOR_ADDRESS_REFUSAL); `terminal_only`: no door leg.
 */
export type PekStreetlessDoor = 'town' | 'terminal_only';
export const PEK_STREETLESS_DOOR: PekStreetlessDoor = 'town';

/** Where the cargo goes: PEK's receiving warehouse (terminal) or a door address (delivery ordered). */
export type PekDestination = { warehouseId: string } | { address: string };

export function pekCargo(parcel: Parcel): PekCargo {
  const l = Math.ceil(parcel.length_cm);
  const w = Math.ceil(parcel.width_cm);
  const h = Math.ceil(parcel.height_cm);
  return {
    // Centimetres are integers here, so /100 is exact to two decimals.
    length: l / 100,
    width: w / 100,
    height: h / 100,
    // cm³ → m³ (÷ 1,000,000), up to hundredths: a shoebox is 0.01 m³, the smallest PEK counts.
    volume: Math.ceil((l * w * h) / 10_000) / 100,
    // Exact kilograms (grams / 1000, at most three decimals). PEK asks for two and rounds anything finer up to
    // hundredths itself ("1.871001 будет 1.88", CalculatePriceRequest doc), so 1.871 is priced as 1.88 either
    // way; the exact figure keeps the request traceable to the parcel (the chaos suite tags calls by weight).
    weight: parcel.weight_grams / 1000,
  };
}

/** Kopecks → roubles as a JSON number with at most two decimals, by integer arithmetic. */
export function kopecksToRoubles(kopecks: number): number {
  return Number(`${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`);
}

/**
 * Moscow time (UTC+3, no DST) as "YYYY-MM-DDTHH:mm:ss": the sending branch's local time is what PEK wants,
 * and without the branch's zone Moscow is the honest default (most branches are within an hour or two of it;
 * it only decides which day's departures are counted).
 */
export function plannedDateTime(now: Date): string {
  return new Date(now.getTime() + 3 * 3_600_000).toISOString().slice(0, 19);
}

export function buildCalculateRequest(options: {
  types: readonly number[];
  senderWarehouseId: string;
  to: PekDestination;
  /** Every place of the shipment (at least one). */
  places: readonly Parcel[];
  declaredValueKopecks: number;
  now: Date;
}): PekCalculateRequest {
  const door = 'address' in options.to;
  const insured = options.declaredValueKopecks > 0;
  return {
    types: [...options.types],
    // The shipper brings the cargo to PEK's terminal (самопривоз): no pickup ordered.
    senderWarehouseId: options.senderWarehouseId,
    isPickUp: false,
    isDelivery: door,
    ...('address' in options.to
      ? { delivery: { address: options.to.address } }
      : { receiverWarehouseId: options.to.warehouseId }),
    plannedDateTime: plannedDateTime(options.now),
    cargos: options.places.map(pekCargo),
    // «Стоимость груза (сумма, на которую будет застрахован груз), руб.» (glook CalculatePriceRequest.php).
    // Cash on delivery has no field here: it is a service of PEK's order (cargopickup `services.cashOnDelivery`,
    // glook CashOnDelivery.php), not of the calculator.
    isInsurance: insured,
    ...(insured ? { isInsurancePrice: kopecksToRoubles(options.declaredValueKopecks) } : {}),
    currencyCode: '643',
  };
}
