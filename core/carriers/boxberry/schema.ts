// Boxberry's answers (protocols.md §3, verified-2026 §3), one zod schema each. Loose objects: a field Boxberry
// adds never breaks a quote. Numbers may come as strings (DeliveryCosts' delivery_period is a string unless
// UseShopSettings=1), so prices and periods accept both and are converted by the mapper.
import { z } from 'zod';

const numberish = z.union([z.number(), z.string()]);

/** One variant of DeliveryCalculation: 1 = to a pickup point (склад-склад), 2 = courier (склад-дверь). */
export const BoxberryDeliveryCost = z.looseObject({
  DeliveryTypeId: z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')]),
  TotalPrice: numberish,
  PriceBase: numberish,
  PriceService: numberish.optional(),
  DeliveryPeriod: numberish,
});
export type BoxberryDeliveryCost = z.infer<typeof BoxberryDeliveryCost>;

/** `{"error": false, "result": {"DeliveryCosts": [...]}}` (official plugin Models/DeliveryCalculation.php). */
export const BoxberryCalculation = z.looseObject({
  error: z.literal(false).optional(),
  result: z.looseObject({ DeliveryCosts: z.array(z.unknown()) }),
});

/**
 * The error forms, all inside HTTP 200 (official plugin HTTP.php, gwinn fixtures ErrString/ErrBool/
 * ErrorMessage): `{"err":"text"}`, `[{"err":"text"}]`, `{"error":true,"message":"text"}`, `{"err":true,
 * "message":"text"}`.
 */
const ErrObject = z.looseObject({
  err: z.union([z.string(), z.literal(true)]),
  message: z.string().optional(),
});
const ErrorFlag = z.looseObject({ error: z.literal(true), message: z.string().optional() });
export const BoxberryError = z.union([ErrObject, ErrorFlag, z.array(ErrObject).min(1)]);
export type BoxberryError = z.infer<typeof BoxberryError>;

const flag = z.union([z.string(), z.number()]).optional().catch(undefined);

/**
 * ListCitiesFull / ListCities: one Boxberry city (gwinn fixtures listCitiesFull.json, listCities.json). Flags are
 * "0"/"1": `Reception` «приём заказов от ИМ на пунктах выдачи», `PickupPoint` pickup points in the town,
 * `CourierDelivery`, `CourierReception` «курьерский забор» (a Boxberry city model's field notes, 3p id
 * 18388010080).
 */
export const BoxberryCity = z.looseObject({
  Code: z.union([z.string().min(1), z.number()]),
  Name: z.string(),
  Region: z.string().optional(),
  Kladr: z.string().optional(),
  CountryCode: z.union([z.string(), z.number()]).optional(),
  Reception: flag,
  PickupPoint: flag,
  CourierDelivery: flag,
});
export const BoxberryCityList = z.array(z.unknown());

/** ZipCheck: `[{"ExpressDelivery":1,"ZoneExpressDelivery":"2","Remoteness":2}]` (gwinn fixture zipCheck.json). */
export const BoxberryZipCheck = z
  .array(
    z.looseObject({
      ExpressDelivery: z.union([z.number(), z.string(), z.boolean()]),
    }),
  )
  .min(1);
