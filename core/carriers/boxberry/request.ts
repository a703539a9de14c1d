// Boxberry requests exactly as the protocol has them (protocols.md §3.2–3.5, verified-2026 §3):
// DeliveryCalculation is a POST with a JSON body carrying `token` and `method` (the official plugin sends it
// so; form encoding is the SDK risk verified-2026 names first); directory methods are GETs with
// `?token=…&method=…`. Units: grams, whole centimetres, roubles.
import type { Parcel } from '../../contract/v1';

/** DeliveryTypeId: 1 to a pickup point (склад-склад), 2 courier to the door (склад-дверь). */
export type BoxberryDeliveryType = 1 | 2;
export const BOXBERRY_DELIVERY_TYPES: readonly BoxberryDeliveryType[] = [1, 2];

export interface DeliveryCalculationInput {
  token: string;
  senderCityId: string;
  recipientCityId: string;
  deliveryType: BoxberryDeliveryType;
  /** The recipient's index, only when ZipCheck said Boxberry's courier serves it (the official plugin's rule). */
  zip: string | null;
  /** Every place of the shipment: one BoxSizes entry each. */
  places: readonly Parcel[];
  declaredValueKopecks: number;
  /** Cash on delivery, the amount Boxberry collects from the recipient (`PaySum`); 0: prepaid. */
  codKopecks: number;
}

export interface DeliveryCalculationBody {
  token: string;
  method: 'DeliveryCalculation';
  SenderCityId: string;
  RecipientCityId: string;
  DeliveryType: BoxberryDeliveryType;
  OrderSum: number;
  DeliverySum: 0;
  PaySum: number;
  BoxSizes: Array<{ Width: number; Height: number; Depth: number; Weight: number }>;
  /** 0: Boxberry's own price, not the cabinet's markups and rounding (BB-HELP pageId=88015131). */
  UseShopSettings: 0;
  Zip?: string;
}

/**
 * `OrderSum` the declared value and `PaySum` the amount to collect, both roubles (verified-2026 §3: the official
 * plugin passes the cart total in both for a cash order); `BoxSizes` one entry per place ("каждого места в
 * заказе", Boxberry's own validation text). Boxberry prices the insurance and the COD fee into `PriceService`.
 */
export function buildDeliveryCalculation(input: DeliveryCalculationInput): DeliveryCalculationBody {
  return {
    token: input.token,
    method: 'DeliveryCalculation',
    SenderCityId: input.senderCityId,
    RecipientCityId: input.recipientCityId,
    DeliveryType: input.deliveryType,
    OrderSum: kopecksToRoubles(input.declaredValueKopecks),
    DeliverySum: 0,
    PaySum: kopecksToRoubles(input.codKopecks),
    BoxSizes: input.places.map((parcel) => ({
      // Whole centimetres and grams: Boxberry refuses fractions ("…должны быть целыми числами").
      Width: Math.ceil(parcel.width_cm),
      Height: Math.ceil(parcel.height_cm),
      Depth: Math.ceil(parcel.length_cm),
      Weight: Math.ceil(parcel.weight_grams),
    })),
    UseShopSettings: 0,
    ...(input.zip ? { Zip: input.zip } : {}),
  };
}

/** Kopecks → roubles for OrderSum, exact: integer division, never a float product. */
export function kopecksToRoubles(kopecks: number): number {
  const whole = Math.trunc(kopecks / 100);
  const rest = kopecks % 100;
  return rest === 0 ? whole : Number(`${whole}.${String(rest).padStart(2, '0')}`);
}

/** `?token=…&method=ListCitiesFull&CountryCode=643`: Boxberry's cities of Russia with their codes and KLADR. */
export function listCitiesFullUrl(baseUrl: string, token: string): string {
  return `${baseUrl}?${new URLSearchParams({ token, method: 'ListCitiesFull', CountryCode: '643' }).toString()}`;
}

/**
 * `?token=…&method=ListCities&CountryCode=643`: the towns with Boxberry pickup points only, in ListCitiesFull's
 * row shape (gwinn tests/Response/listCities.json; "список городов, в которых есть пункты выдачи", iamwildtuna
 * README): the smaller list the directory falls back to when ListCitiesFull is over the size cap.
 */
export function listCitiesUrl(baseUrl: string, token: string): string {
  return `${baseUrl}?${new URLSearchParams({ token, method: 'ListCities', CountryCode: '643' }).toString()}`;
}

/** `?token=…&method=ZipCheck&Zip=…`: whether Boxberry's courier serves an index. */
export function zipCheckUrl(baseUrl: string, token: string, zip: string): string {
  return `${baseUrl}?${new URLSearchParams({ token, method: 'ZipCheck', Zip: zip }).toString()}`;
}
