// What the Russian Post simulator answers to one /v2/calculate/tariff/delivery query: validation and error
// codes the way tariff.pochta.ru reports them (protocols.md §1.6), prices from the shared tariff model.
// Pure and deterministic (the same query gives the same answer), so it is tested without a server.
import { citiesByPostalCode } from '../../locations/cities';
import { exceededLimits } from '../limits';
import { productLimitsOf } from '../russian-post/limits';
import { codeOf, findObject, nameOf, type ResolvedObject } from '../russian-post/objects';
import { moscowDateTime } from '../russian-post/request';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { chargeableGrams, modelDays, modelPriceKopecks, zoneOf } from './tariff-model';

export type SimAnswer = { kind: 'hang' } | { kind: 'json'; status: number; body: object };

const VERSION = '2.14.1.676-ratedesk-sim';
const NDS_RATE = 22;
/** Declared-value fee, percent of the declared value (the real parcel tariff is of this order). */
const DECLARED_VALUE_FEE_PERCENT = 4;

/** Price factor and day offset per product: EMS and courier cost more and arrive sooner. */
const PRODUCT_MODEL: Record<number, { price: number; days: number; transport: string }> = {
  27030: { price: 1.0, days: 1, transport: 'наземно' },
  47030: { price: 1.3, days: -1, transport: 'авиа' },
  23030: { price: 0.85, days: 1, transport: 'наземно' },
  24030: { price: 1.5, days: 0, transport: 'наземно' },
  7030: { price: 2.1, days: -2, transport: 'авиа' },
};

/**
 * The directory of post offices: an index exists when it is the main index of a city of the table (nothing
 * else: an index merely near a known one is refused with 1207, as the carrier refuses an index it has no
 * office for). The other carriers' sandbox codes exist too, so that one carrier's trigger never knocks this
 * one out.
 */
const TRIGGER_CODES: ReadonlySet<string> = ALL_TRIGGER_CODES;
function indexExists(index: string): boolean {
  return citiesByPostalCode(index).length > 0 || TRIGGER_CODES.has(index);
}

/** Packaging codes the calculator knows (PochtaSdk PackageType.cs: boxes S–XL, bags, bubble envelopes, 99). */
const PACK_CODES: ReadonlySet<string> = new Set([
  '10',
  '11',
  '12',
  '20',
  '21',
  '22',
  '30',
  '31',
  '40',
  '41',
  '99',
]);

interface ErrorItem {
  msg: string;
  code: number;
  type: number;
}

const PARAM_NAMES: Record<string, string> = {
  object: 'Вид отправления',
  from: 'Индекс места отправления',
  to: 'Индекс места назначения',
  weight: 'Вес отправления',
  pack: 'Тип упаковки',
  size: 'Размеры отправления',
  sumoc: 'Сумма объявленной ценности',
  sumnp: 'Сумма наложенного платежа',
};

const missing = (param: string): ErrorItem => ({
  code: 1201,
  type: 3,
  msg: `Не указано значение параметра "${PARAM_NAMES[param]}" (${param})`,
});
const invalid = (param: string, value: string): ErrorItem => ({
  code: 1301,
  type: 3,
  msg: `Неверное значение параметра "${PARAM_NAMES[param]}" (${param}). значение "${value}" не является параметром почтового объекта.`,
});

function failure(id: number, errors: ErrorItem[], status: number): SimAnswer {
  return { kind: 'json', status, body: { version_api: 2, version: VERSION, id, errors } };
}

export function answerTariffQuery(query: URLSearchParams, now: Date): SimAnswer {
  const get = (name: string) => query.get(name)?.trim() ?? '';
  const errorStatus = get('errorcode') === '1' ? 400 : 200;
  const rawObject = get('object');
  const objectId = /^\d+$/.test(rawObject) ? Number(rawObject) : 0;
  const fail = (...errors: ErrorItem[]) => failure(objectId, errors, errorStatus);

  switch (sandboxBehaviour('russian-post', get('to'))) {
    case 'timeout':
      return { kind: 'hang' };
    case 'error':
      return failure(objectId, [{ code: 5000, type: 0, msg: 'Внутренняя ошибка сервиса расчета' }], 500);
    case 'no_service':
      return fail({ code: 1209, type: 1, msg: 'Расчет по маршруту невозможен' });
    case 'ok':
      break;
  }

  if (rawObject === '') return fail(missing('object'));
  const resolved = findObject(objectId);
  if (!resolved) return fail({ code: 1205, type: 3, msg: `Неверный код объекта: ${rawObject}` });

  for (const param of ['from', 'to'] as const) {
    const value = get(param);
    if (value === '') return fail(missing(param));
    if (!/^\d{6}$/.test(value)) return fail(invalid(param, value));
    if (!indexExists(value)) {
      return fail({
        code: 1207,
        type: 3,
        msg: `Отделение почтовой связи с индексом ${value} (${param}) не существует`,
      });
    }
  }

  const rawWeight = get('weight');
  if (rawWeight === '') return fail(missing('weight'));
  if (!/^\d+$/.test(rawWeight) || Number(rawWeight) === 0) return fail(invalid('weight', rawWeight));
  const weight = Number(rawWeight);

  const rawSize = get('size');
  const rawPack = get('pack');
  if (rawSize === '' && rawPack === '') return fail(missing('pack'));
  if (rawPack !== '' && !PACK_CODES.has(rawPack)) return fail(invalid('pack', rawPack));
  let size: [number, number, number] | null = null;
  if (rawSize !== '') {
    const m = /^(\d+)x(\d+)x(\d+)$/.exec(rawSize);
    if (!m || m.slice(1).some((s) => Number(s) === 0)) return fail(invalid('size', rawSize));
    size = [Number(m[1]), Number(m[2]), Number(m[3])];
  }

  const rawSumoc = get('sumoc');
  if (resolved.withDeclaredValue && rawSumoc === '') return fail(missing('sumoc'));
  if (rawSumoc !== '' && !/^\d+$/.test(rawSumoc)) return fail(invalid('sumoc', rawSumoc));
  const declaredValue = resolved.withDeclaredValue ? Number(rawSumoc) : 0;
  // "с ОЦ и НП" objects need the COD amount, and Russian Post takes no COD above the declared value (the
  // refusal's code and wording are the simulator's own: 1200 «Неверное значение»).
  const rawSumnp = get('sumnp');
  if (resolved.withCod && rawSumnp === '') return fail(missing('sumnp'));
  if (rawSumnp !== '' && !/^\d+$/.test(rawSumnp)) return fail(invalid('sumnp', rawSumnp));
  if (resolved.withCod && Number(rawSumnp) > declaredValue) {
    return fail({
      code: 1200,
      type: 3,
      msg: `Сумма наложенного платежа (sumnp) ${rawSumnp} не может превышать сумму объявленной ценности (sumoc) ${declaredValue}`,
    });
  }

  const date = get('date') || moscowDateTime(now).date;
  const time = get('time') || '0000';
  if (!validDate(date) || !/^([01]\d|2[0-3])[0-5]\d$/.test(time)) {
    return fail({ code: 1203, type: 3, msg: `Неверно указаны дата или время расчета: ${date} ${time}` });
  }

  // The product's published limits (russian-post/limits.ts), the ones the adapter declares: over them the
  // carrier answers 1378 «Параметр … не может быть больше» (ErrorCode.cs).
  const limits = productLimitsOf(codeOf(resolved));
  if (weight > limits.maxWeightGrams) {
    return fail({
      code: 1378,
      type: 1,
      msg: `Значение параметра "${PARAM_NAMES.weight}" (weight) ${weight} больше максимально допустимого ${limits.maxWeightGrams}`,
    });
  }
  if (size) {
    const over = exceededLimits(
      { ...limits, maxWeightGrams: Infinity },
      { weight_grams: weight, length_cm: size[0], width_cm: size[1], height_cm: size[2] },
    );
    if (over.length > 0) {
      return fail({
        code: 1378,
        type: 1,
        msg: `Значение параметра "${PARAM_NAMES.size}" (size) ${rawSize} больше максимально допустимого`,
      });
    }
  }

  return {
    kind: 'json',
    status: 200,
    body: tariffBody({ resolved, from: get('from'), to: get('to'), weight, size, declaredValue, date, time }),
  };
}

interface Calculation {
  resolved: ResolvedObject;
  from: string;
  to: string;
  weight: number;
  size: [number, number, number] | null;
  declaredValue: number;
  date: string;
  time: string;
}

function withNds(val: number): { val: number; valnds: number } {
  return { val, valnds: Math.round((val * (100 + NDS_RATE)) / 100) };
}

/** The §1.4 response shape: steps in items[], totals in kopecks, control term in days. */
function tariffBody(c: Calculation): object {
  const { object, withDeclaredValue, withCod } = c.resolved;
  const id = codeOf(c.resolved);
  const model = PRODUCT_MODEL[object.code] ?? { price: 1, days: 0, transport: 'наземно' };
  const zone = zoneOf(c.from, c.to);
  const grams = c.size ? chargeableGrams(c.weight, ...c.size) : c.weight;
  const ground = withNds(modelPriceKopecks(zone, grams, model.price));
  // The declared-value fee goes in `cover` (its field in the real answer); the transfer of the cash on
  // delivery is not priced, as the real calculator (we believe) does not price it.
  const cover = withNds(Math.round((c.declaredValue * DECLARED_VALUE_FEE_PERCENT) / 100));
  const [min, max] = modelDays(zone, model.days);
  const pay = ground.val + cover.val;
  const paynds = ground.valnds + cover.valnds;
  const items: object[] = [
    { id: '9101', name: `Пересылка: ${object.name}`, serviceon: [], tariff: ground },
    ...(withDeclaredValue
      ? [{ id: '9102', name: 'Плата за объявленную ценность', serviceon: [], cover }]
      : []),
    {
      id: '5210',
      name: 'Нормативный срок доставки',
      serviceon: [],
      from: Number(c.from),
      to: Number(c.to),
      delivery: { min, max },
    },
  ];
  return {
    version_api: 2,
    version: VERSION,
    caption: 'Расчет тарифов, контрольных сроков доставки',
    id,
    name: nameOf(c.resolved),
    mailtype: Math.floor(object.code / 1000),
    mailctg: withCod ? 4 : withDeclaredValue ? 2 : 0,
    directctg: 1,
    weight: c.weight,
    from: Number(c.from),
    to: Number(c.to),
    date: Number(c.date),
    time: Number(c.time) * 100,
    transtype: model.transport === 'авиа' ? 2 : 1,
    transname: model.transport,
    items,
    ground,
    ...(withDeclaredValue ? { cover } : {}),
    pay,
    paynds,
    ndsrate: NDS_RATE,
    nds: paynds - pay,
    delivery: { min, max, deadline: `${addDays(c.date, max)}T235900` },
    place: 'ratedesk-simulator',
  };
}

function validDate(yyyymmdd: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

function addDays(yyyymmdd: string, days: number): string {
  const d = new Date(
    Date.UTC(
      Number(yyyymmdd.slice(0, 4)),
      Number(yyyymmdd.slice(4, 6)) - 1,
      Number(yyyymmdd.slice(6, 8)) + days,
    ),
  );
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}
