// The bodies of POST /calculator/tarifflist and POST /calculator/tariff (protocols.md §2.4, §2.5).
import type { Parcel } from '../../contract/v1';
import type { CdekLocation } from './locations';

/** 1 = online store (ИМ), 2 = delivery (protocols.md §2.4); which one an account has is in its contract. */
export type CdekContractType = 1 | 2;

export interface CdekPackage {
  weight: number;
  length: number;
  width: number;
  height: number;
}

export interface CdekTariffListRequest {
  type: CdekContractType;
  lang: 'rus';
  from_location: CdekLocation;
  to_location: CdekLocation;
  packages: CdekPackage[];
}

/** One entry of `services[]` of /calculator/tariff (protocols.md §2.5). */
export interface CdekService {
  code: string;
  parameter: number;
}

export interface CdekTariffRequest {
  type: CdekContractType;
  tariff_code: number;
  from_location: CdekLocation;
  to_location: CdekLocation;
  packages: CdekPackage[];
  services: CdekService[];
}

/**
 * One package per place (#21): CDEK prices a shipment of several places (грузомест) from its `packages[]`,
 * each with its own weight and size. CDEK wants integer centimetres; rounding up never makes a place look
 * smaller than it is.
 */
export function packagesOf(places: Parcel | readonly Parcel[]): CdekPackage[] {
  const list: readonly Parcel[] = Array.isArray(places) ? places : [places as Parcel];
  return list.map((p) => ({
    weight: p.weight_grams,
    length: Math.ceil(p.length_cm),
    width: Math.ceil(p.width_cm),
    height: Math.ceil(p.height_cm),
  }));
}

/**
 * type 1 = online-store contract, the tariff set a shop quoting for its buyers sees; 2 = a delivery contract
 * (Сборный груз and the like). No declared value: tarifflist has no field for it (insurance is a
 * /calculator/tariff service, below).
 */
export function buildTariffListRequest(
  from: CdekLocation,
  to: CdekLocation,
  places: Parcel | readonly Parcel[],
  type: CdekContractType = 1,
): CdekTariffListRequest {
  return { type, lang: 'rus', from_location: from, to_location: to, packages: packagesOf(places) };
}

/**
 * One tariff with the INSURANCE service, whose parameter is the declared value in roubles, as CDEK's official
 * plugin sends it (cdek-it/wordpress CalculateDeliveryAction.php: `['code' => 'INSURANCE', 'parameter' =>
 * (int)$package['contents_cost']]`, then CdekApi::calculateGet reads `total_sum`). Whole roubles like the
 * plugin, rounded up so the insured value is never below the declared one.
 */
export function buildInsuredTariffRequest(
  list: CdekTariffListRequest,
  tariffCode: number,
  declaredValueKopecks: number,
): CdekTariffRequest {
  return {
    type: list.type,
    tariff_code: tariffCode,
    from_location: list.from_location,
    to_location: list.to_location,
    packages: list.packages,
    services: [{ code: CDEK_INSURANCE, parameter: Math.ceil(declaredValueKopecks / 100) }],
  };
}

/** CDEK's service code for insurance (страхование) by declared value. */
export const CDEK_INSURANCE = 'INSURANCE';
