// The body of POST /calculator/tarifflist (protocols.md §2.4).
import type { Parcel } from '../../contract/v1';
import type { CdekLocation } from './locations';

export interface CdekTariffListRequest {
  type: 1;
  lang: 'rus';
  from_location: CdekLocation;
  to_location: CdekLocation;
  packages: Array<{ weight: number; length: number; width: number; height: number }>;
}

/**
 * type 1 = online-store contract, the tariff set a shop quoting for its buyers sees. CDEK wants integer
 * centimetres; rounding up never makes a parcel look smaller than it is. No declared value: tarifflist has
 * no field for it (insurance is a /calculator/tariff service), so CDEK prices exclude insurance.
 */
export function buildTariffListRequest(
  from: CdekLocation,
  to: CdekLocation,
  parcel: Parcel,
): CdekTariffListRequest {
  return {
    type: 1,
    lang: 'rus',
    from_location: from,
    to_location: to,
    packages: [
      {
        weight: parcel.weight_grams,
        length: Math.ceil(parcel.length_cm),
        width: Math.ceil(parcel.width_cm),
        height: Math.ceil(parcel.height_cm),
      },
    ],
  };
}
