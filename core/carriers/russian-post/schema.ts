// What tariff.pochta.ru sends back (protocols.md §1.4, §1.6), as far as we rely on it. Loose objects: the
// service adds fields between versions, and those must not break a quote.
import { z } from 'zod';

export const TariffError = z.looseObject({
  code: z.int(),
  msg: z.string().optional().default(''),
  type: z.int().optional(),
});
export type TariffError = z.output<typeof TariffError>;

/** Any body carrying `errors[]`: with errorcode=1 it comes with a 4xx/5xx status, with errorcode=0 with 200. */
export const TariffErrorBody = z.looseObject({
  errors: z.array(TariffError).min(1),
});

const Amount = z.looseObject({ val: z.int(), valnds: z.int().optional() });

export const TariffResponse = z.looseObject({
  version_api: z.number().optional(),
  version: z.string().optional(),
  id: z.int(),
  name: z.string().optional(),
  ground: Amount.optional(),
  pay: z.int().min(0).optional(),
  /** Total with VAT, kopecks: the customer's price. */
  paynds: z.int().min(0),
  ndsrate: z.number().optional(),
  nds: z.int().optional(),
  delivery: z
    .looseObject({
      min: z.int().min(0),
      max: z.int().min(0),
      deadline: z.string().optional(),
    })
    .optional(),
});
export type TariffResponse = z.output<typeof TariffResponse>;

/**
 * Error codes meaning "this product is not offered for this route, date or weight" (ErrorCode.cs): the
 * object simply gives no rate. 1207 (no such post office index) belongs here too: for us it means the
 * place is not served, not that the carrier is broken. Anything else (5000/5999 internal, 1201/1301 bad
 * input, which our own requests should never cause) is a carrier error.
 */
const NO_SERVICE_CODES = new Set([1202, 1204, 1207, 1209, 1372, 1373, 1377, 1378]);

export function isNoServiceCode(code: number): boolean {
  return NO_SERVICE_CODES.has(code) || (code >= 2001 && code <= 2011);
}
