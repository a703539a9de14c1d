// PEK's answers as the simulator writes them (verified-2026.md §5; glook/pecom-php-sdk models): the error
// envelope `{"error":{title,message,status?,fields?}}` (inside HTTP 200 for logical errors, or with 400/401/
// 404/405/429), the calculateprice answer with per-product `transfers[]`, a root `hasError` for a route PEK
// does not serve, and the product list of GET /typesOfDelivery/all/.
import type { pekPrice, SimCargo } from './pek-network';

export type Json = Record<string, unknown>;

/** Product ids the calculator accepts (`/typesOfDelivery/all/`); 5 (Express Авто) it cannot calculate. */
export const KNOWN_TYPES: ReadonlySet<number> = new Set([1, 3, 5, 12]);
const PRODUCT_NAMES: Readonly<Record<number, string>> = {
  1: 'Express Авиа',
  3: 'LTL Авто',
  5: 'ПЭК:Express Авто',
  12: 'EasyWay Авто',
};

/** GET /typesOfDelivery/all/: `[{type, name, fullName, contractIsRequired}]` (glook TypesOfDeliveryItem). */
export function typesOfDelivery(): Json[] {
  return [...KNOWN_TYPES].map((type) => ({
    type,
    name: PRODUCT_NAMES[type],
    fullName: `ПЭК: ${PRODUCT_NAMES[type]}`,
    // LTL needs no contract beyond the public offer (PK-AG); the others are modelled as contract products.
    contractIsRequired: type !== 3,
  }));
}

export function pekError(
  title: string,
  message: string,
  status?: number,
  fields?: Record<string, string>,
): Json {
  return {
    error: {
      title,
      message,
      ...(status === undefined ? {} : { status }),
      ...(fields ? { fields: Object.entries(fields).map(([key, m]) => ({ key, value: [m] })) } : {}),
    },
  };
}

export function validation(
  fields: Record<string, string>,
  message = 'Переданы некорректные данные',
): { status: 400; body: Json } {
  return { status: 400, body: pekError('Ошибка валидации', message, 400, fields) };
}

/**
 * A route PEK does not serve, as a root `hasError` with the reason and no product (PEK's answer has the flag
 * and `errorMessage` at the root, glook `CalculatePriceResponse.php`; what PEK writes there is unpublished:
 * audit P9). RateDesk reads a route message as "no service".
 */
export function routeRefused(message: string): Json {
  return {
    hasError: true,
    errorMessage: message,
    currencyCode: '643',
    transfers: [],
    commonTerms: [],
    transportingTimes: [],
  };
}

/**
 * The calculateprice answer for `types`: a refused product gets `hasError` with its reason; the others a price
 * (roubles with decimals), calendar days in `estDeliveryTime` and the same as strings in `commonTerms`.
 */
export function answer(
  types: readonly number[],
  refusal: (type: number) => string | null,
  price?: (type: number) => ReturnType<typeof pekPrice>,
): Json {
  const transfers: Json[] = [];
  const commonTerms: Json[] = [];
  for (const type of types) {
    const why = refusal(type);
    if (why !== null || !price) {
      transfers.push({
        type,
        hasError: true,
        errorMessage: why ?? 'Расчет невозможен',
        costTotal: null,
        services: [],
      });
      continue;
    }
    const p = price(type);
    const total = p.transporting + p.delivery + p.insurance;
    const services: Json[] = [
      { serviceType: 'transporting', info: PRODUCT_NAMES[type], cost: p.transporting / 100, services: [] },
    ];
    if (p.delivery) services.push({ serviceType: 'delivery', cost: p.delivery / 100, services: [] });
    // `insuranceTerm` «встречается только у услуги страхования» (glook CalculatorServiceItem.php).
    if (p.insurance)
      services.push({
        serviceType: 'insurance',
        cost: p.insurance / 100,
        insuranceTerm: false,
        services: [],
      });
    transfers.push({
      type,
      hasError: false,
      errorMessage: null,
      costTotal: total / 100,
      estDeliveryTime: p.days[1],
      services,
    });
    const term = p.days[0] === p.days[1] ? String(p.days[0]) : `${p.days[0]} – ${p.days[1]}`;
    commonTerms.push({ type, transporting: [term], transportingWithDelivery: [term] });
  }
  return {
    hasError: false,
    errorMessage: null,
    currencyCode: '643',
    transfers,
    commonTerms,
    transportingTimes: [],
  };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `cargos[]` as PEK validates it: one element per place, weight (kg) required, sizes (m) and volume optional. */
export function readCargos(cargos: unknown): SimCargo[] | { status: 400; body: Json } {
  if (!Array.isArray(cargos) || cargos.length === 0)
    return validation({ cargos: 'Необходимо заполнить «cargos»' });
  const parsedCargos: SimCargo[] = [];
  for (const [i, c] of cargos.entries()) {
    if (!isRecord(c) || typeof c.weight !== 'number' || !(c.weight > 0)) {
      return validation({ [`cargos[${i}].weight`]: 'Необходимо указать вес, кг' });
    }
    const dims: Record<string, number> = {};
    for (const k of ['length', 'width', 'height', 'volume'] as const) {
      const v = c[k];
      if (v === undefined || v === null) {
        dims[k] = 0;
        continue;
      }
      if (typeof v !== 'number' || v < 0)
        return validation({ [`cargos[${i}].${k}`]: 'Некорректное значение' });
      dims[k] = v;
    }
    parsedCargos.push({
      weight: c.weight,
      length: dims.length!,
      width: dims.width!,
      height: dims.height!,
      volume: dims.volume!,
    });
  }
  return parsedCargos;
}
