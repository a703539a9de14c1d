// zod schemas of what Yandex Delivery's «другой день» platform API answers (verified-2026.md §7; the stored
// official page of pricing-calculator, YA-MD). Loose objects: new fields never break a quote.
import { z } from 'zod';

/** POST /api/b2b/platform/pricing-calculator, HTTP 200: `{"pricing_total":"225.7 RUB","delivery_days":7}`. */
export const YandexPricing = z.looseObject({
  /** "<number> <currency>", VAT included («с НДС»); the number may have one, two or no decimals. */
  pricing_total: z.string().min(1),
  delivery_days: z.int().min(0).nullable().optional().catch(undefined),
});
export type YandexPricing = z.infer<typeof YandexPricing>;

/** Error body of every 4xx/5xx: `{"code":"no_delivery_options","message":"…"}`. */
export const YandexError = z.looseObject({
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
});
export type YandexError = z.infer<typeof YandexError>;

/** POST /api/b2b/platform/location/detect → `variants[{geo_id,address}]`. */
export const YandexDetect = z.looseObject({
  variants: z.array(z.looseObject({ geo_id: z.int(), address: z.string().optional().catch(undefined) })),
});

/**
 * POST /api/b2b/platform/pickup-points/list → `points[{id, position, …}]`; ids are strings (UUID or 32 hex).
 * Only what the adapter reads is checked: the id, where the point is (to take the one nearest the town's
 * centre) and whether it takes drop-offs. A point's address, contact, schedule and flags pass unread.
 */
export const YandexPickupPoints = z.looseObject({
  points: z.array(
    z.looseObject({
      id: z.string().min(1),
      position: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional().catch(undefined),
      available_for_dropoff: z.boolean().optional().catch(undefined),
    }),
  ),
});
