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

/** Today's products, the default of the setting carriers.russian-post.objects. */
export const DEFAULT_OBJECT_CODES: readonly number[] = POST_OBJECTS.map((o) => o.code);

/**
 * The setting's text ("27030,47030,…") as codes, in order, once each; anything that is not a code is
 * skipped, and an empty list falls back to today's products (the setting's own validation already refuses
 * such text, so this only guards a hand-edited file).
 */
export function parseObjectCodes(setting: string | undefined): number[] {
  const codes = [...new Set((setting ?? '').split(',').map((c) => c.trim()))]
    .filter((c) => /^\d{1,6}$/.test(c))
    .map(Number)
    .filter((c) => c > 0);
  return codes.length > 0 ? codes : [...DEFAULT_OBJECT_CODES];
}

/**
 * The "с объявленной ценностью" variant of a product: ours from the table; otherwise Russian Post's own
 * pattern, …030 обыкновенная → …020 с ОЦ (4030/4020, 34030/34020, 30030/30020 in ObjectType.cs); null for a
 * product without one, which is then asked for without the declared value.
 */
export function declaredValueVariant(code: number): number | null {
  const known = POST_OBJECTS.find((o) => o.code === code);
  if (known) return known.declaredValueCode;
  return code % 1000 === 30 ? code - 10 : null;
}

export interface ObjectRequest {
  object: number;
  /** Whether `sumoc` goes with it (a declared-value variant). */
  withDeclaredValue: boolean;
}

/** The object codes to ask for: the declared-value variants when there is a declared value. */
export function objectCodesFor(
  declaredValueKopecks: number,
  codes: readonly number[] = DEFAULT_OBJECT_CODES,
): ObjectRequest[] {
  return codes.map((code) => {
    const variant = declaredValueKopecks > 0 ? declaredValueVariant(code) : null;
    return variant === null
      ? { object: code, withDeclaredValue: false }
      : { object: variant, withDeclaredValue: true };
  });
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
