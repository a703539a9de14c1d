// The /v1 wire format of ../shared/spec/rating-service-v1.md §2, as zod schemas.
// This file is the single source: TypeScript types and docs/openapi.json are derived from it.
import { z } from 'zod';

export const MAX_WEIGHT_GRAMS = 1_000_000;
export const MAX_DIMENSION_CM = 1000;
export const MAX_DECLARED_VALUE_KOPECKS = 100_000_000_000;
export const MAX_CITY_LENGTH = 120;
export const MAX_CARRIER_CODE_LENGTH = 40;
/** Spec §8 leaves the array size open; 20 is far above the number of carriers we can ever query. */
export const MAX_CARRIERS_FILTER = 20;

export const DeliveryType = z
  .enum(['door', 'pickup_point', 'terminal', 'post_office', 'unknown'])
  .meta({ id: 'DeliveryType' });
export type DeliveryType = z.infer<typeof DeliveryType>;

export const Location = z
  .strictObject({
    country: z.literal('RU').default('RU'),
    city: z.string().min(1).max(MAX_CITY_LENGTH),
    postal_code: z
      .string()
      .regex(/^\d{6}$/)
      .nullable()
      .optional(),
  })
  .meta({ id: 'Location' });
export type Location = z.output<typeof Location>;

export const Parcel = z
  .strictObject({
    weight_grams: z.int().gt(0).max(MAX_WEIGHT_GRAMS),
    length_cm: z.number().gt(0).max(MAX_DIMENSION_CM),
    width_cm: z.number().gt(0).max(MAX_DIMENSION_CM),
    height_cm: z.number().gt(0).max(MAX_DIMENSION_CM),
  })
  .meta({ id: 'Parcel' });
export type Parcel = z.output<typeof Parcel>;

export const Shipment = z
  .strictObject({
    from: Location,
    to: Location,
    parcel: Parcel,
    declared_value_kopecks: z.int().min(0).max(MAX_DECLARED_VALUE_KOPECKS).default(0),
    carriers: z
      .array(z.string().min(1).max(MAX_CARRIER_CODE_LENGTH))
      .max(MAX_CARRIERS_FILTER)
      .nullable()
      .optional(),
  })
  .meta({ id: 'Shipment' });
export type Shipment = z.output<typeof Shipment>;
export type ShipmentInput = z.input<typeof Shipment>;

export const Rate = z
  .object({
    carrier: z.string(),
    carrier_name: z.string(),
    service_code: z.string(),
    service_name: z.string(),
    delivery_type: DeliveryType,
    price_kopecks: z.int().min(0),
    currency: z.literal('RUB').default('RUB'),
    days_min: z.int().min(0).nullable().optional(),
    days_max: z.int().min(0).nullable().optional(),
    price_type: z.literal('public').default('public'),
  })
  .meta({ id: 'Rate' });
export type Rate = z.output<typeof Rate>;

export const Unavailable = z
  .object({
    carrier: z.string(),
    reason: z.string(),
  })
  .meta({ id: 'Unavailable' });
export type Unavailable = z.output<typeof Unavailable>;

export const RatesResponse = z
  .object({
    request_id: z.string(),
    rates: z.array(Rate),
    unavailable: z.array(Unavailable),
    balance_remaining: z.int(),
  })
  .meta({ id: 'RatesResponse' });
export type RatesResponse = z.output<typeof RatesResponse>;

export const BalanceResponse = z.object({ balance: z.int() }).meta({ id: 'BalanceResponse' });
export type BalanceResponse = z.output<typeof BalanceResponse>;

export const CarrierStatus = z.enum(['available', 'unknown', 'unavailable']).meta({ id: 'CarrierStatus' });
export type CarrierStatus = z.infer<typeof CarrierStatus>;

export const CarrierInfo = z
  .object({ code: z.string(), name: z.string(), status: CarrierStatus })
  .meta({ id: 'CarrierInfo' });
export type CarrierInfo = z.output<typeof CarrierInfo>;

export const CarriersResponse = z.object({ carriers: z.array(CarrierInfo) }).meta({ id: 'CarriersResponse' });
export type CarriersResponse = z.output<typeof CarriersResponse>;

export const ErrorDetail = z
  .object({
    code: z.string(),
    message: z.string(),
    request_id: z.string(),
    /** Our addition for 400 validation_failed: one entry per problem, with its JSON path. */
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'ErrorDetail' });
export type ErrorDetail = z.output<typeof ErrorDetail>;

export const ErrorResponse = z
  .object({
    error: ErrorDetail,
    unavailable: z.array(Unavailable).optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.output<typeof ErrorResponse>;
