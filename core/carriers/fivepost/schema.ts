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

/** One entry of a point's `rate[]`: the price to that point, VAT included in `…WithVat`. */
export const FivePostRate = z.looseObject({
  rateType: z.string().optional(),
  rateTypeCode: z.union([z.string(), z.number()]).optional(),
  zone: z.union([z.string(), z.number()]).optional(),
  rateValue: amount.optional(),
  vat: z.number().optional(),
  rateValueWithVat: amount,
  rateExtraValue: amount.optional(),
  rateExtraValueWithVat: amount.optional(),
  rateCurrency: z.string().optional(),
});
export type FivePostRate = z.infer<typeof FivePostRate>;

/** A point of the catalogue (`content[]` of pickuppoints/query). */
export const FivePostPoint = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.string().min(1).max(40),
  name: z.string().optional(),
  fullAddress: z.string().optional(),
  address: z.looseObject({
    zipCode: z.union([z.string(), z.number()]).optional(),
    city: z.string().min(1),
    region: z.string().optional(),
  }),
  cellLimits: z
    .looseObject({
      maxCellWidth: z.number().positive(),
      maxCellHeight: z.number().positive(),
      maxCellLength: z.number().positive(),
      maxWeight: z.number().positive(),
    })
    .optional(),
  rate: z.array(FivePostRate).optional(),
  deliverySL: z
    .array(
      z.looseObject({
        sl: z.number().int().nonnegative(),
        minimalSl: z.number().int().nonnegative().optional(),
        slCode: z.union([z.string(), z.number()]).optional(),
      }),
    )
    .optional(),
});
export type FivePostPoint = z.infer<typeof FivePostPoint>;

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
