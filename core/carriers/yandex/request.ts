// The body of POST /api/b2b/platform/pricing-calculator (the official page, YA-MD; verified-2026.md §7.2):
// grams, whole centimetres with dx = length, dy = height, dz = width (the page's PlacePhysicalDimensions
// table), kopecks for the assessed value. Rounding up never makes a parcel look smaller than it is.
import type { Parcel } from '../../contract/v1';

export type YandexTariff = 'time_interval' | 'self_pickup';

export type YandexDestination = { address: string } | { platform_station_id: string };

export interface YandexPricingRequest {
  source: { platform_station_id: string };
  destination: YandexDestination;
  tariff: YandexTariff;
  total_weight: number;
  total_assessed_price: number;
  client_price: 0;
  payment_method: 'already_paid';
  places: Array<{ physical_dims: { weight_gross: number; dx: number; dy: number; dz: number } }>;
}

export function buildPricingRequest(options: {
  sourceStationId: string;
  destination: YandexDestination;
  tariff: YandexTariff;
  parcel: Parcel;
  declaredValueKopecks: number;
}): YandexPricingRequest {
  const { parcel } = options;
  return {
    source: { platform_station_id: options.sourceStationId },
    destination: options.destination,
    tariff: options.tariff,
    total_weight: parcel.weight_grams,
    total_assessed_price: options.declaredValueKopecks,
    // Prepaid: RateDesk quotes delivery, not cash on delivery.
    client_price: 0,
    payment_method: 'already_paid',
    places: [
      {
        physical_dims: {
          weight_gross: parcel.weight_grams,
          dx: Math.ceil(parcel.length_cm),
          dy: Math.ceil(parcel.height_cm),
          dz: Math.ceil(parcel.width_cm),
        },
      },
    ],
  };
}
