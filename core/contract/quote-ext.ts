// The clerk's quote (#21), a RateDesk extension beside /v1: the /v1 shipment plus cash on delivery, several
// places and a shipping date; each rate plus its fee breakdown, delivery dates and the customer's price.
// /v1 itself never changes: its Shipment and Rate stay the spec's, a /v1 request enters the core through
// fromV1, and a /v1 answer is cut back to the spec's fields by toV1Rate. One source for the extension's
// types, its OpenAPI schemas (POST /ext/v1/rates), the desk's quote:run and the bulk run.
import { z } from 'zod';
import {
  Location,
  MAX_CARRIER_CODE_LENGTH,
  MAX_CARRIERS_FILTER,
  MAX_DECLARED_VALUE_KOPECKS,
  Parcel,
  Rate,
  Unavailable,
  type Shipment,
} from './v1';

/**
 * Places in one shipment, counting every `count`. CDEK takes up to 255 packages and Dellin's calculator a
 * few hundred; 50 is far above a desk's parcel of boxes and keeps a bad request from costing N² work.
 */
export const MAX_PLACES = 50;
export const MAX_COD_KOPECKS = MAX_DECLARED_VALUE_KOPECKS;

export const IsoDate = z.iso.date().meta({ id: 'IsoDate', description: 'A calendar date, YYYY-MM-DD.' });

/** One box of a shipment, `count` times the same (N × the same box). */
export const Place = Parcel.extend({ count: z.int().min(1).max(MAX_PLACES).default(1) }).meta({
  id: 'Place',
});
export type Place = z.output<typeof Place>;

export const QuoteRequest = z
  .strictObject({
    from: Location,
    to: Location,
    /** One box, as in /v1. Exactly one of `parcel` and `places` is given. */
    parcel: Parcel.optional(),
    /** Several boxes (each with its weight and size, or `count` × the same box). */
    places: z.array(Place).min(1).max(MAX_PLACES).optional(),
    /** The value the carrier insures (объявленная ценность); 0: none declared. */
    declared_value_kopecks: z.int().min(0).max(MAX_DECLARED_VALUE_KOPECKS).default(0),
    /** Cash on delivery (наложенный платёж) the recipient pays; 0: none. */
    cod_kopecks: z.int().min(0).max(MAX_COD_KOPECKS).default(0),
    /** The day the parcel is handed over; absent: today (Moscow time), or the next day after a cut-off. */
    ship_date: IsoDate.optional(),
    carriers: z
      .array(z.string().min(1).max(MAX_CARRIER_CODE_LENGTH))
      .max(MAX_CARRIERS_FILTER)
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.parcel === undefined) === (v.places === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['places'], message: 'give either parcel or places (not both)' });
    }
    const count = (v.places ?? []).reduce((n, p) => n + p.count, 0);
    if (count > MAX_PLACES) {
      ctx.addIssue({ code: 'custom', path: ['places'], message: `at most ${MAX_PLACES} places in all` });
    }
  })
  .meta({ id: 'QuoteRequest' });
/** The shipment every quote is rated as inside the core (a /v1 one through fromV1). */
export type QuoteShipment = z.output<typeof QuoteRequest>;
export type QuoteRequestInput = z.input<typeof QuoteRequest>;

/** A /v1 shipment as the core rates it: one place, no cash on delivery, shipped today. */
export function fromV1(shipment: Shipment): QuoteShipment {
  return { ...shipment, cod_kopecks: 0 };
}

/** Every box of the shipment, one entry per box (`count` expanded), in the order given. */
export function placesOf(shipment: Pick<QuoteShipment, 'parcel' | 'places'>): Parcel[] {
  if (shipment.places === undefined) return shipment.parcel ? [shipment.parcel] : [];
  return shipment.places.flatMap(({ count, ...box }) => Array.from({ length: count }, () => box));
}

/** What the shipment weighs in all (History's weight column). */
export function totalWeightGrams(shipment: Pick<QuoteShipment, 'parcel' | 'places'>): number {
  return placesOf(shipment).reduce((sum, p) => sum + p.weight_grams, 0);
}

/** True when /v1 can carry it as it is (one box, no COD, no date): `history:curl` then shows a /v1 call. */
export function isV1Shaped(shipment: QuoteShipment): boolean {
  return (
    shipment.parcel !== undefined &&
    shipment.places === undefined &&
    shipment.cod_kopecks === 0 &&
    shipment.ship_date === undefined
  );
}

/** An option of the request a rate's price may leave out. */
export const RateOption = z.enum(['cod', 'insurance']).meta({ id: 'RateOption' });
export type RateOption = z.output<typeof RateOption>;

/**
 * An option asked for that the rate's price does not include: `not_offered` (this service refuses it, e.g. no
 * cash on delivery on a courier tariff: the rate is still shown so the clerk sees why), `not_quoted` (the
 * carrier's calculator does not price it; its cabinet will add a fee). Never a silent omission.
 */
export const NotPriced = z
  .object({
    option: RateOption,
    reason: z.enum(['not_offered', 'not_quoted']),
    /** The carrier's rule in words (English, stable), e.g. "COD over 500000 RUB". */
    detail: z.string().optional(),
  })
  .meta({ id: 'NotPriced' });
export type NotPriced = z.output<typeof NotPriced>;

/** The price's parts where the carrier gives them; null: not given separately (then it is inside the total). */
export const PriceBreakdown = z
  .object({
    base_kopecks: z.int().min(0).nullable(),
    insurance_kopecks: z.int().min(0).nullable(),
    cod_fee_kopecks: z.int().min(0).nullable(),
  })
  .meta({ id: 'PriceBreakdown' });
export type PriceBreakdown = z.output<typeof PriceBreakdown>;

export const DaysKind = z.enum(['working', 'calendar']).meta({ id: 'DaysKind' });
export type DaysKind = z.output<typeof DaysKind>;

/**
 * What an adapter may add to a /v1 rate. All optional, so an adapter that knows none of it still answers;
 * finishRates (core/quote/finish.ts) turns it into the full QuoteRate.
 */
export interface CarrierRateExtras {
  breakdown?: Partial<PriceBreakdown>;
  options_not_priced?: NotPriced[];
  /** The value the carrier insured, when it differs from the declared one (raised to the COD amount). */
  insured_value_kopecks?: number;
  /** The rate's own kind of days, when the carrier says (CDEK: calendar_* or period_*). */
  days_kind?: DaysKind;
}
export type CarrierRate = Rate & CarrierRateExtras;

export const QuoteRate = Rate.extend({
  /** price_kopecks is the total the carrier charges: base + insurance + COD fee where it gives them. */
  breakdown: PriceBreakdown,
  options_not_priced: z.array(NotPriced),
  /** The value insured (the declared value, or more where the carrier requires insurance ≥ COD). */
  insured_value_kopecks: z.int().min(0),
  /** How many places were priced (places of the request, counts expanded). */
  places: z.int().min(1),
  days_kind: DaysKind,
  /** The day counted from: the requested or today's date, moved on past this carrier's cut-off and days off. */
  ship_date: IsoDate,
  /** The expected delivery dates (null when the carrier gave no days). */
  delivery_date_min: IsoDate.nullable(),
  delivery_date_max: IsoDate.nullable(),
  /** The customer's price by the account's resale rule for this carrier; null: no rule applies. */
  customer_price_kopecks: z.int().min(0).nullable(),
}).meta({ id: 'QuoteRate' });
export type QuoteRate = z.output<typeof QuoteRate>;

export const QuoteResponse = z
  .object({
    request_id: z.string(),
    /** Cheapest first. */
    rates: z.array(QuoteRate),
    unavailable: z.array(Unavailable),
    balance_remaining: z.int(),
  })
  .meta({ id: 'QuoteResponse' });
export type QuoteResponse = z.output<typeof QuoteResponse>;

/** A rate as /v1 sends it: the spec's fields only, whatever the core added (#21 keeps /v1 unchanged). */
export function toV1Rate(rate: Rate): Rate {
  const { carrier, carrier_name, service_code, service_name, delivery_type, price_kopecks, currency } = rate;
  return {
    carrier,
    carrier_name,
    service_code,
    service_name,
    delivery_type,
    price_kopecks,
    currency,
    ...(rate.days_min !== undefined ? { days_min: rate.days_min } : {}),
    ...(rate.days_max !== undefined ? { days_max: rate.days_max } : {}),
    price_type: rate.price_type,
  };
}
