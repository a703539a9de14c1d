// zod schemas of what CDEK API v2 answers (protocols.md §2). Deliberately loose objects: CDEK adds fields
// over time (calendar_*, delivery_date_range, …) and an adapter must not break on them.
import { z } from 'zod';

/** Fields we do not strictly need: a bad value counts as absent instead of failing the whole object. */
const optionalDays = z.int().min(0).optional().catch(undefined);

/** POST /oauth/token, HTTP 200. */
export const CdekTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  /** Seconds; ≈3599 in practice. Absent is tolerated (we then assume one hour, see token.ts). */
  expires_in: z.number().positive().optional().catch(undefined),
});
export type CdekTokenResponse = z.infer<typeof CdekTokenResponse>;

/** OAuth-style failure body of /oauth/token (and of some 401s): `{error, error_description}`. */
export const CdekOAuthError = z.looseObject({
  error: z.string(),
  error_description: z.string().optional().catch(undefined),
});

/** One item of `errors[]`. CDEK always sends `code`; `message` is usually there. */
export const CdekApiError = z.looseObject({
  code: z.string(),
  message: z.string().optional().catch(undefined),
});
export type CdekApiError = z.infer<typeof CdekApiError>;

/**
 * The envelope of POST /calculator/tarifflist. Items stay `unknown` here so one malformed tariff does not
 * sink the others: each is validated on its own with CdekTariffItem. Bad entries of `errors[]` are dropped
 * for the same reason.
 */
export const CdekTariffListEnvelope = z.looseObject({
  tariff_codes: z.array(z.unknown()).optional(),
  errors: z
    .array(z.unknown())
    .optional()
    .transform((list) =>
      (list ?? []).flatMap((e) => {
        const r = CdekApiError.safeParse(e);
        return r.success ? [r.data] : [];
      }),
    ),
});
export type CdekTariffListEnvelope = z.infer<typeof CdekTariffListEnvelope>;

/** One entry of `tariff_codes[]`. */
export const CdekTariffItem = z.looseObject({
  tariff_code: z.int().positive(),
  tariff_name: z.string().min(1),
  tariff_description: z.string().optional().catch(undefined),
  /** 1..10 (§2.6); absent or unexpected values map to delivery type 'unknown'. */
  delivery_mode: z.int().optional().catch(undefined),
  /** Roubles with decimals (2450.5). Strings are accepted and parsed decimally like numbers. */
  delivery_sum: z.union([z.number().min(0), z.string()]),
  period_min: optionalDays,
  period_max: optionalDays,
  calendar_min: optionalDays,
  calendar_max: optionalDays,
});
export type CdekTariffItem = z.infer<typeof CdekTariffItem>;

/** GET /location/cities: a JSON array; we use `code`, and `region` to choose among namesakes. */
export const CdekCityList = z.array(
  z.looseObject({
    code: z.int().positive(),
    city: z.string().optional().catch(undefined),
    region: z.string().optional().catch(undefined),
  }),
);
export type CdekCityList = z.infer<typeof CdekCityList>;

/**
 * POST /calculator/tariff, HTTP 200 (protocols.md §2.5; cdek-it/sdk2.0 Dto/Tariff.php): `delivery_sum` the
 * carriage, `services[]` each service's `sum`, `total_sum` both together, roubles with decimals.
 */
export const CdekTariffResult = z.looseObject({
  delivery_sum: z.union([z.number().min(0), z.string()]),
  total_sum: z.union([z.number().min(0), z.string()]),
  services: z
    .array(z.looseObject({ code: z.string(), sum: z.union([z.number().min(0), z.string()]).optional() }))
    .optional()
    .catch(undefined),
});
export type CdekTariffResult = z.infer<typeof CdekTariffResult>;
