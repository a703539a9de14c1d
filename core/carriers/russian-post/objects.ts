// The Russian Post products RateDesk quotes, shared by the adapter (which codes to ask for) and the sandbox
// simulator (which codes exist). Codes and names follow PochtaSdk ObjectType.cs, generated from the live
// dictionary (protocols.md §1.5); weight limits from the product names in public plugin tables. The
// adapter does not pre-filter by these limits: the carrier answers 1378 itself, and a stale local limit
// must not hide a product the carrier now accepts.
import type { DeliveryType } from '../../contract/v1';

export interface PostObject {
  /** Object code without declared value ("обыкновенная"), e.g. 27030. */
  code: number;
  /** The "с объявленной ценностью" variant, used when the declared value is above zero. */
  declaredValueCode: number;
  name: string;
  declaredValueName: string;
  deliveryType: DeliveryType;
  maxWeightGrams: number;
}

export const POST_OBJECTS: readonly PostObject[] = [
  {
    code: 27030,
    declaredValueCode: 27020,
    name: 'Посылка стандарт',
    declaredValueName: 'Посылка стандарт с объявленной ценностью',
    deliveryType: 'post_office',
    maxWeightGrams: 10_000,
  },
  {
    code: 47030,
    declaredValueCode: 47020,
    name: 'Посылка 1 класса',
    declaredValueName: 'Посылка 1 класса с объявленной ценностью',
    deliveryType: 'post_office',
    maxWeightGrams: 5_000,
  },
  {
    code: 23030,
    declaredValueCode: 23020,
    name: 'Посылка онлайн обыкновенная',
    declaredValueName: 'Посылка онлайн с объявленной ценностью',
    // Delivered to a post office or a partner pickup point; the carrier does not say which (§1.5).
    deliveryType: 'post_office',
    maxWeightGrams: 20_000,
  },
  {
    code: 24030,
    declaredValueCode: 24020,
    name: 'Курьер онлайн обыкновенный',
    declaredValueName: 'Курьер онлайн с объявленной ценностью',
    deliveryType: 'door',
    maxWeightGrams: 31_500,
  },
  {
    code: 7030,
    declaredValueCode: 7020,
    name: 'EMS',
    declaredValueName: 'EMS с объявленной ценностью',
    deliveryType: 'door',
    maxWeightGrams: 31_500,
  },
];

/** The object codes to ask for: the declared-value variants when there is a declared value. */
export function objectCodesFor(declaredValueKopecks: number): number[] {
  return POST_OBJECTS.map((o) => (declaredValueKopecks > 0 ? o.declaredValueCode : o.code));
}

export interface ResolvedObject {
  object: PostObject;
  withDeclaredValue: boolean;
}

/** Either code of a product (plain or declared-value variant), or undefined for codes we do not quote. */
export function findObject(code: number): ResolvedObject | undefined {
  for (const object of POST_OBJECTS) {
    if (object.code === code) return { object, withDeclaredValue: false };
    if (object.declaredValueCode === code) return { object, withDeclaredValue: true };
  }
  return undefined;
}
