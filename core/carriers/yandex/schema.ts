// zod schemas of what Yandex Delivery's «другой день» platform API answers (verified-2026.md §7; the stored
// official page of pricing-calculator, YA-MD). Loose objects: new fields never break a quote.
import { z } from 'zod';

/** POST /api/b2b/platform/pricing-calculator, HTTP 200: `{"pricing_total":"225.7 RUB","delivery_days":7}`. */
export const YandexPricing = z.looseObject({
  /** "<number> <currency>", VAT included («с НДС»); the number may have one, two or no decimals. */
  pricing_total: z.string().min(1),
  delivery_days: z.int().min(0).nullable().optional().catch(undefined),
  /**
   * Not on the official page's table, but in clients' models of this answer (a Go client's
   * `PredictPriceResponse`, 3p id 19553626166; a Java `YandexCalculatorResponse`, 3p id 3598055202) and in the
   * offers' `OfferDetails` of the same platform: `pricing` «стоимость за услугу доставки и страхование посылки
   * (с НДС)» and the commission for taking the payment, «заполняется в случае указания способа оплаты отличного
   * от already_paid», in roubles (`…_amount`, "9.43 RUB") and per cent ("2.2%").
   */
  pricing: z.string().optional().catch(undefined),
  pricing_commission_on_delivery_payment_amount: z.string().optional().catch(undefined),
  pricing_commission_on_delivery_payment: z.string().optional().catch(undefined),
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
