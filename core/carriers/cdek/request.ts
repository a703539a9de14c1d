// The body of POST /calculator/tarifflist (protocols.md §2.4).
import type { Parcel } from '../../contract/v1';
import type { CdekLocation } from './locations';

/** 1 = online store (ИМ), 2 = delivery (protocols.md §2.4); which one an account has is in its contract. */
export type CdekContractType = 1 | 2;

export interface CdekTariffListRequest {
  type: CdekContractType;
  lang: 'rus';
  from_location: CdekLocation;
  to_location: CdekLocation;
  packages: Array<{ weight: number; length: number; width: number; height: number }>;
}

/**
 * type 1 = online-store contract, the tariff set a shop quoting for its buyers sees; 2 = a delivery contract
 * (Сборный груз and the like). CDEK wants integer centimetres; rounding up never makes a parcel look smaller
 * than it is. No declared value: tarifflist has no field for it (insurance is a /calculator/tariff service),
 * so CDEK prices exclude insurance.
 */
export function buildTariffListRequest(
  from: CdekLocation,
  to: CdekLocation,
  parcel: Parcel,
  type: CdekContractType = 1,
): CdekTariffListRequest {
  return {
    type,
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
