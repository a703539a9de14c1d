// The body of POST /api/b2b/platform/pricing-calculator (the official page, YA-MD; verified-2026.md §7.2):
// grams, whole centimetres with dx = length, dy = height, dz = width (the page's PlacePhysicalDimensions
// table), kopecks for the assessed value and the sum the recipient pays. Rounding up never makes a parcel look
// smaller than it is. Every place is an element of `places[]` and `total_weight` is all of them together.
import type { Parcel } from '../../contract/v1';

export type YandexTariff = 'time_interval' | 'self_pickup';

export type YandexDestination = { address: string } | { platform_station_id: string };

/**
 * How the recipient pays for the goods (`payment_method`, the official page's enum: `already_paid` «уже
 * оплачено», `card_on_receipt` «оплата картой при получении»). Cash on delivery is `card_on_receipt`: the
 * calculator takes no cash option (pickup points list `cash_on_receipt` for orders, not for this call).
 */
export type YandexPaymentMethod = 'already_paid' | 'card_on_receipt';

export function paymentMethodFor(codKopecks: number): YandexPaymentMethod {
  return codKopecks > 0 ? 'card_on_receipt' : 'already_paid';
}

export interface YandexPricingRequest {
  source: { platform_station_id: string };
  destination: YandexDestination;
  tariff: YandexTariff;
  total_weight: number;
  total_assessed_price: number;
  client_price: number;
  payment_method: YandexPaymentMethod;
  places: Array<{ physical_dims: { weight_gross: number; dx: number; dy: number; dz: number } }>;
}

export function buildPricingRequest(options: {
  sourceStationId: string;
  destination: YandexDestination;
  tariff: YandexTariff;
  /** Every place of the shipment (at least one). */
  places: readonly Parcel[];
  declaredValueKopecks: number;
  /** Cash on delivery: `client_price` «сумма к оплате с получателя в копейках»; 0 prepaid. */
  codKopecks: number;
}): YandexPricingRequest {
  return {
    source: { platform_station_id: options.sourceStationId },
    destination: options.destination,
    tariff: options.tariff,
    // «Суммарный вес посылки в граммах»: all places together.
    total_weight: options.places.reduce((sum, p) => sum + Math.ceil(p.weight_grams), 0),
    // «Суммарная оценочная стоимость посылок в копейках»: the declared value, insured by Yandex.
    total_assessed_price: options.declaredValueKopecks,
    client_price: options.codKopecks,
    payment_method: paymentMethodFor(options.codKopecks),
    places: options.places.map((p) => ({
      physical_dims: {
        weight_gross: Math.ceil(p.weight_grams),
        dx: Math.ceil(p.length_cm),
        dy: Math.ceil(p.height_cm),
        dz: Math.ceil(p.width_cm),
      },
    })),
  };
}
