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
  /**
   * The "с объявленной ценностью и наложенным платежом" variant (с ОЦ и НП), used with cash on delivery: Russian
   * Post takes COD only on declared-value items (protocols.md §1.5 lists 27040, 47040, 23040, 24040, 7040).
   */
  codCode: number;
  name: string;
  declaredValueName: string;
  codName: string;
  deliveryType: DeliveryType;
  maxWeightGrams: number;
}

export const POST_OBJECTS: readonly PostObject[] = [
  {
    code: 27030,
    declaredValueCode: 27020,
    codCode: 27040,
    name: 'Посылка стандарт',
    declaredValueName: 'Посылка стандарт с объявленной ценностью',
    codName: 'Посылка стандарт с объявленной ценностью и наложенным платежом',
    deliveryType: 'post_office',
    maxWeightGrams: 10_000,
  },
  {
    code: 47030,
    declaredValueCode: 47020,
    codCode: 47040,
    name: 'Посылка 1 класса',
    declaredValueName: 'Посылка 1 класса с объявленной ценностью',
    codName: 'Посылка 1 класса с объявленной ценностью и наложенным платежом',
    deliveryType: 'post_office',
    maxWeightGrams: 5_000,
  },
  {
    code: 23030,
    declaredValueCode: 23020,
    codCode: 23040,
    name: 'Посылка онлайн обыкновенная',
    declaredValueName: 'Посылка онлайн с объявленной ценностью',
    codName: 'Посылка онлайн с объявленной ценностью и наложенным платежом',
    // Delivered to a post office or a partner pickup point; the carrier does not say which (§1.5).
    deliveryType: 'post_office',
    maxWeightGrams: 20_000,
  },
  {
    code: 24030,
    declaredValueCode: 24020,
    codCode: 24040,
    name: 'Курьер онлайн обыкновенный',
    declaredValueName: 'Курьер онлайн с объявленной ценностью',
    codName: 'Курьер онлайн с объявленной ценностью и наложенным платежом',
    deliveryType: 'door',
    maxWeightGrams: 31_500,
  },
  {
    code: 7030,
    declaredValueCode: 7020,
    codCode: 7040,
    name: 'EMS',
    declaredValueName: 'EMS с объявленной ценностью',
    codName: 'EMS с объявленной ценностью и наложенным платежом',
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

/**
 * The "с ОЦ и НП" variant of a product: ours from the table; otherwise Russian Post's pattern …030 → …040
 * (4030/4040, 34030/34040 in protocols.md §1.5); null for a product without one (COD is then not offered).
 */
export function codVariant(code: number): number | null {
  const known = POST_OBJECTS.find((o) => o.code === code);
  if (known) return known.codCode;
  return code % 1000 === 30 ? code + 10 : null;
}

export interface ObjectRequest {
  object: number;
  /** Whether `sumoc` goes with it (a declared-value variant). */
  withDeclaredValue: boolean;
  /** Whether `sumnp` goes with it too (the "с ОЦ и НП" variant). */
  withCod: boolean;
  /** Options asked for that this product has no variant for: its rate says so (not_offered). */
  notOffered: ('cod' | 'insurance')[];
}

/**
 * The object codes to ask for: with cash on delivery the "с ОЦ и НП" variants (which carry a declared value
 * too: Russian Post takes COD only with one), with a declared value alone the "с ОЦ" variants.
 */
export function objectCodesFor(
  declaredValueKopecks: number,
  codes: readonly number[] = DEFAULT_OBJECT_CODES,
  codKopecks = 0,
): ObjectRequest[] {
  return codes.map((code) => {
    const withCod = codKopecks > 0 ? codVariant(code) : null;
    if (withCod !== null) return { object: withCod, withDeclaredValue: true, withCod: true, notOffered: [] };
    const notOffered: ObjectRequest['notOffered'] = codKopecks > 0 ? ['cod'] : [];
    const variant = declaredValueKopecks > 0 ? declaredValueVariant(code) : null;
    if (variant !== null) return { object: variant, withDeclaredValue: true, withCod: false, notOffered };
    if (declaredValueKopecks > 0) notOffered.push('insurance');
    return { object: code, withDeclaredValue: false, withCod: false, notOffered };
  });
}

export interface ResolvedObject {
  object: PostObject;
  withDeclaredValue: boolean;
  withCod: boolean;
}

/** Any code of a product (plain, с ОЦ, с ОЦ и НП), or undefined for codes we do not quote. */
export function findObject(code: number): ResolvedObject | undefined {
  for (const object of POST_OBJECTS) {
    if (object.code === code) return { object, withDeclaredValue: false, withCod: false };
    if (object.declaredValueCode === code) return { object, withDeclaredValue: true, withCod: false };
    if (object.codCode === code) return { object, withDeclaredValue: true, withCod: true };
  }
  return undefined;
}

/** The object code of a resolved variant. */
export function codeOf(r: ResolvedObject): number {
  return r.withCod ? r.object.codCode : r.withDeclaredValue ? r.object.declaredValueCode : r.object.code;
}

/** The name of a resolved variant (when the answer carries none). */
export function nameOf(r: ResolvedObject): string {
  return r.withCod ? r.object.codName : r.withDeclaredValue ? r.object.declaredValueName : r.object.name;
}
