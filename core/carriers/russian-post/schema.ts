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
  /** Carriage (пересылка), kopecks. */
  ground: Amount.optional().catch(undefined),
  /**
   * The declared-value fee (плата за объявленную ценность), kopecks: read as `cover` by lapaygroup/RussianPost
   * (CalculateInfo setCover/setCoverNds) and by plugins that take it off `paynds` to show insurance apart.
   */
  cover: Amount.optional().catch(undefined),
  /** Extra services (уведомление, SMS …), kopecks. */
  service: Amount.optional().catch(undefined),
  pay: z.int().min(0).optional(),
  /** Total with VAT, kopecks: the customer's price. */
  paynds: z.int().min(0),
  ndsrate: z.number().optional(),
  nds: z.int().optional(),
  /**
   * Control term in days. Sometimes it carries only `deadline` (protocols.md §1.4: items hold `{min,max}` or
   * `{deadline}`), or nothing usable: the price still stands, with days unknown (null), rather than the whole
   * answer being thrown away.
   */
  delivery: z
    .looseObject({
      min: z.int().min(0).optional().catch(undefined),
      max: z.int().min(0).optional().catch(undefined),
      deadline: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});
export type TariffResponse = z.output<typeof TariffResponse>;

/**
 * Error codes meaning "this product is not offered for this route, date or weight" (PochtaSdk ErrorCode.cs,
 * from the calculator PDF's appendix 13): the object simply gives no rate. 1202 service not provided, 1204
 * not on that date, 1207 no such post office index (for us: the place is not served, not a broken carrier),
 * 1209 route cannot be calculated, 1372/1373 not performed (route/tariff), 1375 «Доставка не осуществляется»,
 * 1376 «Услуга не оказывается при входном значении», 1377/1378 below/above a limit, 1379 «Услуга не
 * оказывается при … равным …», 1450 «Запрет доставки в определенную точку», 2001–2011 delivery not possible.
 * Anything else (5000/5999 internal, 1201/1301 bad input, which our own requests should never cause) is a
 * carrier error.
 */
const NO_SERVICE_CODES = new Set([1202, 1204, 1207, 1209, 1372, 1373, 1375, 1376, 1377, 1378, 1379, 1450]);

export function isNoServiceCode(code: number): boolean {
  return NO_SERVICE_CODES.has(code) || (code >= 2001 && code <= 2011);
}

/**
 * Every code ErrorCode.cs lists (appendix 13 of the calculator PDF). A code outside it is logged by the
 * adapter: the carrier has grown a new one, and we learn what it meant from the log.
 */
const KNOWN_CODES = new Set([
  1101, 1200, 1201, 1202, 1203, 1204, 1205, 1207, 1209, 1210, 1211, 1222, 1301, 1302, 1304, 1305, 1332, 1333,
  1334, 1340, 1342, 1343, 1366, 1367, 1370, 1371, 1372, 1373, 1374, 1375, 1376, 1377, 1378, 1379, 1380, 1387,
  1450, 5000, 5999,
]);

export function isKnownCode(code: number): boolean {
  return KNOWN_CODES.has(code) || (code >= 2001 && code <= 2011);
}
