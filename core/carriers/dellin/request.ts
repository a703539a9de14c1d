// The body of POST /v2/calculator.json (protocols.md §4.4; dev.dellin.ru/api/calculation/calculator/, DL-CALC):
// appkey in the body, auto (LTL) freight from a Dellin terminal either to a terminal or to an address in the
// recipient's city, cargo in metres, kilograms and cubic metres, declared value in roubles. Several places are
// one `cargo` as DL-CALC describes it: their count, the largest of each side, the heaviest place and the totals.
import type { Parcel } from '../../contract/v1';

/**
 * What the recipient gets: a terminal to collect at, or delivery to an address searched by text
 * (`address.search`, DL-CALC). Never `city` with the `address` variant: the calculator's documentation forbids
 * it («Передача параметра невозможна, только если заказана доставка до адреса», xylocode
 * `DelLin/Calc1/Req/DerivalArrival.cs`, potapov-denis/DellinSDK `src/Entities/DerivalArrival.php`; audit DL3),
 * so the type has no such form.
 */
export type DellinArrival =
  { variant: 'terminal'; terminalId: string } | { variant: 'address'; search: string };

/**
 * What the door leg sends when the request has no street (RateDesk's requests never carry one: a town and
 * perhaps a postal code). DL-CALC describes `address.search` as the street and house «помимо» the town's name,
 * comma-separated ("Омск, Ленина, 5", xylocode `Calc1/Req/Address.cs`); what Dellin does with a town alone is
 * not documented (audit DL4, unverified). The choice:
 * - `town_search`: search the town ("420000, Республика Татарстан, Казань"), priced to the town as Dellin
 *   geocodes it; when Dellin refuses it (any 4xx), there is no door rate and the terminal rate stays;
 * - `terminal_only`: no door leg without a street (no door rate at all).
 */
export type DellinStreetlessDoor = 'town_search' | 'terminal_only';
export const DELLIN_STREETLESS_DOOR: DellinStreetlessDoor = 'town_search';

/**
 * The town-level search string: the postal code when known (it also carries the sandbox triggers to the
 * simulator), the region (so namesakes such as Киров of Калужская область are told apart; a federal city is
 * its own region and is not named twice), then the town, comma-separated as DL-CALC asks.
 */
export function townSearch(place: {
  city: string;
  region: string | null;
  postalCode: string | null;
}): string {
  const region = place.region && place.region !== place.city ? place.region : null;
  return [place.postalCode, region, place.city]
    .map((p) => p?.trim())
    .filter((p): p is string => Boolean(p))
    .join(', ');
}

export interface DellinCalcInput {
  appkey: string;
  /** The sender's terminal (from /v1/public/request_terminals.json, direction derival). */
  derivalTerminalId: string;
  /** 25-character KLADR code of the sender's city: the payment city. */
  derivalCityKladr: string;
  arrival: DellinArrival;
  /** "YYYY-MM-DD": the service clock's date in Moscow (or the next day after error 180012). */
  produceDate: string;
  /** Every place of the shipment (at least one). */
  places: readonly Parcel[];
  declaredValueKopecks: number;
}

/**
 * Above these a place is oversized ("негабаритный") for auto freight and its weight and volume must be
 * declared as such (DL-PD DeliveryType docstring, mirroring DL-CALC: "auto over 100 kg or any side over 3 m").
 */
export const OVERSIZED_WEIGHT_KG = 100;
export const OVERSIZED_SIDE_M = 3;

/** Delivery to an address needs the recipient's working hours; a business day is assumed. */
export const ADDRESS_WORKTIME = { worktimeStart: '09:00', worktimeEnd: '18:00' } as const;

/** 13-digit KLADR code of the built-in table → Dellin's 25 characters (protocols.md §4.5: + 12 zeros). */
export function kladr25(kladr13: string): string {
  return kladr13.padEnd(25, '0');
}

/** Integer units scaled down by a power of ten, as a JSON number: 1200 g → 1.2 kg, exact to the last digit. */
function scaled(units: number, power: number): number {
  return Number(`${Math.trunc(units)}e-${power}`);
}

interface PlaceSize {
  sidesCm: [number, number, number];
  volumeCm3: number;
  grams: number;
  oversized: boolean;
}

function sizeOf(parcel: Parcel): PlaceSize {
  const sidesCm = [parcel.length_cm, parcel.width_cm, parcel.height_cm].map((s) => Math.ceil(s)) as [
    number,
    number,
    number,
  ];
  const grams = Math.trunc(parcel.weight_grams);
  return {
    sidesCm,
    volumeCm3: sidesCm[0] * sidesCm[1] * sidesCm[2],
    grams,
    oversized: grams > OVERSIZED_WEIGHT_KG * 1000 || Math.max(...sidesCm) > OVERSIZED_SIDE_M * 100,
  };
}

/**
 * The `cargo` block for the shipment's places (xylocode `DelLin/Calc1/Req/Cargo.cs`, DL-CALC's field docs):
 * `quantity` the number of places; `length`/`width`/`height` those «самого длинного / широкого / высокого
 * грузового места», so each side is the largest of its kind over the places; `weight` «вес самого тяжелого
 * грузового места» (required when quantity > 1); `totalWeight` and `totalVolume` the sums; `oversizedWeight` /
 * `oversizedVolume` «вес / объём негабаритных грузовых мест», the sums over the oversized places only. Sums are
 * of whole grams and cm³, so the totals are exact.
 */
export function cargoOf(places: readonly Parcel[]): Record<string, number> {
  const sizes = places.map(sizeOf);
  const max = (f: (p: PlaceSize) => number): number => Math.max(...sizes.map(f));
  const sum = (list: readonly PlaceSize[], f: (p: PlaceSize) => number): number =>
    list.reduce((n, p) => n + f(p), 0);
  const oversized = sizes.filter((p) => p.oversized);
  return {
    quantity: sizes.length,
    length: scaled(
      max((p) => p.sidesCm[0]),
      2,
    ),
    width: scaled(
      max((p) => p.sidesCm[1]),
      2,
    ),
    height: scaled(
      max((p) => p.sidesCm[2]),
      2,
    ),
    weight: scaled(
      max((p) => p.grams),
      3,
    ),
    totalVolume: scaled(
      sum(sizes, (p) => p.volumeCm3),
      6,
    ),
    totalWeight: scaled(
      sum(sizes, (p) => p.grams),
      3,
    ),
    ...(oversized.length > 0
      ? {
          oversizedWeight: scaled(
            sum(oversized, (p) => p.grams),
            3,
          ),
          oversizedVolume: scaled(
            sum(oversized, (p) => p.volumeCm3),
            6,
          ),
        }
      : {}),
    hazardClass: 0,
  };
}

export function buildCalculatorRequest(input: DellinCalcInput): Record<string, unknown> {
  const a = input.arrival;
  const arrival =
    a.variant === 'terminal'
      ? { variant: 'terminal', terminalID: a.terminalId }
      : { variant: 'address', address: { search: a.search }, time: ADDRESS_WORKTIME };
  const cargo: Record<string, unknown> = cargoOf(input.places);
  // Insurance of the cargo only: `term` (insuring the delivery date, «по умолчанию true», Insurance.cs) is a
  // service of its own the clerk did not ask for.
  if (input.declaredValueKopecks > 0) {
    cargo.insurance = { statedValue: scaled(input.declaredValueKopecks, 2), term: false };
  }
  return {
    appkey: input.appkey,
    delivery: {
      deliveryType: { type: 'auto' },
      derival: { produceDate: input.produceDate, variant: 'terminal', terminalID: input.derivalTerminalId },
      arrival,
    },
    cargo,
    payment: { type: 'noncash', paymentCity: input.derivalCityKladr },
  };
}

/** The service clock's date in Moscow (UTC+3 all year), as Dellin's produceDate wants it. */
export function moscowDate(now: Date): string {
  return new Date(now.getTime() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD" one day later. */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
