// 5Post's answers (protocols.md §8, verified-2026 §8), one zod schema each. Loose objects: fields 5Post adds
// never break a download. Amounts may come as numbers or numeric strings.
import { z } from 'zod';

const amount = z.union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/)]);

/**
 * `POST /jwt-generate-claims/rs256/1?apikey=…` → `{"jwt":"…"}`. `status` is optional (only an emulator sends
 * it; lapaygroup/fivepost-sdk refuses any status other than OK/ok).
 */
export const FivePostJwtResponse = z.looseObject({
  jwt: z.string().min(10),
  status: z.string().optional(),
});

/**
 * Optional fields may come as null: the only raw capture (lapaygroup README, PHP print_r) prints null, false and
 * "" alike, so which of them 5Post sends for an empty `rateType` or `building` is unknown. Null reads as absent.
 */
const opt = <T extends z.ZodType>(schema: T) =>
  z
    .union([schema, z.null()])
    .optional()
    .transform((v) => (v === null ? undefined : v));

/** One entry of a point's `rate[]`: the price to that point, VAT included in `…WithVat`. */
export const FivePostRate = z.looseObject({
  rateType: opt(z.string()),
  rateTypeCode: opt(z.union([z.string(), z.number()])),
  zone: opt(z.union([z.string(), z.number()])),
  rateValue: opt(amount),
  vat: opt(z.number()),
  rateValueWithVat: amount,
  rateExtraValue: opt(amount),
  rateExtraValueWithVat: opt(amount),
  rateCurrency: opt(z.string()),
});
export type FivePostRate = z.output<typeof FivePostRate>;

/** A point of the catalogue (`content[]` of pickuppoints/query). */
export const FivePostPoint = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(40),
  name: opt(z.string()),
  fullAddress: opt(z.string()),
  /** ACTIVE in the capture and the guide; points in any other state are not offered (F8). */
  extStatus: opt(z.string()),
  /** FIAS GUID of the point's locality: how its town is matched to the city table (town.ts). */
  localityFiasCode: opt(z.string().max(100)),
  address: z.looseObject({
    zipCode: opt(z.union([z.string(), z.number()])),
    city: z.string().min(1),
    /** "г" in the capture, beside `"city": "Зеленодольск г"`. */
    cityType: opt(z.string()),
    region: opt(z.string()),
  }),
  cellLimits: opt(
    z.looseObject({
      maxCellWidth: z.number().positive(),
      maxCellHeight: z.number().positive(),
      maxCellLength: z.number().positive(),
      maxWeight: z.number().positive(),
    }),
  ),
  rate: opt(z.array(FivePostRate)),
  /** Payment on receipt (guide §3.4: both false, the point takes prepaid parcels only) and several places. */
  cashAllowed: opt(z.boolean()).catch(undefined),
  cardAllowed: opt(z.boolean()).catch(undefined),
  multiplaceDeliveryAllowed: opt(z.boolean()).catch(undefined),
  deliverySL: opt(
    z.array(
      z.looseObject({
        sl: z.number().int().nonnegative(),
        minimalSl: opt(z.number().int().nonnegative()),
        slCode: opt(z.union([z.string(), z.number()])),
      }),
    ),
  ),
});
export type FivePostPoint = z.output<typeof FivePostPoint>;

/** One page of pickuppoints/query; points are validated one by one, so one odd point costs only itself. */
export const FivePostPointPage = z.looseObject({
  content: z.array(z.unknown()),
  totalPages: z.number().int().nonnegative(),
  totalElements: z.number().int().nonnegative().optional(),
  numberOfElements: z.number().int().nonnegative().optional(),
});

/**
 * Error forms (verified-2026 §8.4, lapaygroup/fivepost-sdk): the Apigee gateway's
 * `{"fault":{"faultstring"}}`, the API's `{"error","message","status"}`, and `{"success":false,"errorCode",
 * "errorMsg"}`.
 */
const GatewayFault = z.looseObject({ fault: z.looseObject({ faultstring: z.string() }) });
const ApiError = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
  status: z.number().optional(),
});
const Unsuccessful = z.looseObject({
  success: z.literal(false),
  errorCode: z.union([z.number(), z.string()]).optional(),
  errorMsg: z.string().optional(),
});

/**
 * The error forms (verified-2026 §8.4, lapaygroup/fivepost-sdk): the Apigee gateway's
 * `{"fault":{"faultstring"}}`, the API's `{"error","message","status"}`, and `{"success":false,"errorCode",
 * "errorMsg"}`. Their text, or undefined when `json` is none of them.
 */
export function fivePostErrorText(json: unknown): string | undefined {
  const fault = GatewayFault.safeParse(json);
  if (fault.success) return fault.data.fault.faultstring;
  const api = ApiError.safeParse(json);
  if (api.success) return api.data.message ? `${api.data.error}: ${api.data.message}` : api.data.error;
  const unsuccessful = Unsuccessful.safeParse(json);
  if (unsuccessful.success)
    return unsuccessful.data.errorMsg ?? `error ${String(unsuccessful.data.errorCode ?? '')}`.trim();
  return undefined;
}
