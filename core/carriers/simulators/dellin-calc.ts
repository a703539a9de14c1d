// What the Dellin simulator answers, as pure functions: POST /v1/public/request_terminals.json and POST
// /v2/calculator.json, validated like Dellin validates (appkey, the documented field set, KLADR codes and
// terminal ids it knows, produce dates), errors in the official format (HTTP 4xx, `{metadata, errors[]}`,
// DL-ERR), prices from the shared model: freight, cheap per kilogram for heavy cargo and slower than parcels.
import { findCity } from '../../locations/cities';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { dellinCityByKladr, dellinTerminalById, dellinTerminalsOf } from './dellin-terminals';
import { zoneOf } from './tariff-model';

export type DellinSimAnswer = { kind: 'hang' } | { kind: 'reply'; status: number; body: unknown };

/**
 * Codes of Dellin's format. 180002 (address not found), 180003 (no terminal takes the cargo's size), 180012
 * (produce date unavailable) and 117004 (value not in the directory) are Dellin's own (protocols.md §4.6,
 * DL-ERR); 180001 (a required field missing or invalid) and 100001 (bad appkey) are this simulator's, as
 * Dellin's list of them is not in our sources.
 */
export const SIM_CODES = { badField: 180001, badAppkey: 100001 } as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function error(
  status: number,
  code: number,
  title: string,
  detail: string,
  fields: string[] = [],
): DellinSimAnswer {
  return {
    kind: 'reply',
    status,
    body: {
      metadata: { status, detail: title, generated_at: stamp(new Date()) },
      errors: [
        {
          code,
          title,
          detail,
          link: `https://dev.dellin.ru/api/calculation/calculator/#error_${code}`,
          fields,
        },
      ],
    },
  };
}

const badField = (
  field: string,
  detail = 'Обязательный параметр не передан или имеет неверный формат',
): DellinSimAnswer => error(400, SIM_CODES.badField, 'Ошибка валидации параметра', detail, [field]);

function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function checkAppkey(body: Record<string, unknown>, appkey: string): DellinSimAnswer | null {
  if (typeof body.appkey !== 'string' || body.appkey === '')
    return error(401, SIM_CODES.badAppkey, 'Не передан ключ приложения', 'Параметр appkey обязателен', [
      'appkey',
    ]);
  if (body.appkey !== appkey)
    return error(401, SIM_CODES.badAppkey, 'Неверный ключ приложения', 'Ключ appkey не найден', ['appkey']);
  return null;
}

export function answerTerminals(body: Record<string, unknown>, appkey: string): DellinSimAnswer {
  const auth = checkAppkey(body, appkey);
  if (auth) return auth;
  if (body.direction !== undefined && body.direction !== 'derival' && body.direction !== 'arrival')
    return badField('direction');
  if (typeof body.code !== 'string' || !/^\d{25}$/.test(body.code)) return badField('code');
  if (!dellinCityByKladr(body.code)) {
    return error(
      400,
      117004,
      'значение не найдено в справочнике',
      'необходимо выбрать значение из соответствующего справочника',
      ['code'],
    );
  }
  return {
    kind: 'reply',
    status: 200,
    body: {
      terminals: dellinTerminalsOf(body.code).map((t) => ({
        id: t.id,
        name: t.name,
        address: t.address,
        default: t.default,
      })),
    },
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;
const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** The arrival as the simulator understood it: the postal index the price model and the triggers read. */
type Arrival =
  { ok: true; index: string; variant: 'terminal' | 'address' } | { ok: false; answer: DellinSimAnswer };

/**
 * What the simulator does with an `address.search` that names a town but no street. DL-CALC asks for the
 * street and house plus the town («помимо собственно адреса (улицы и номера дома)… наименование населённого
 * пункта», xylocode `Calc1/Req/Address.cs`) and says nothing of a town alone (audit DL4, unverified), so both
 * are modelled: `geocode_town` (the default) prices delivery to the town, `refuse` answers 180002.
 */
export type DellinStreetlessSearch = 'geocode_town' | 'refuse';

export interface DellinCalcOptions {
  streetlessSearch?: DellinStreetlessSearch;
}

const notFound = (search: string, why: string): DellinSimAnswer =>
  error(400, 180002, 'Адрес не найден', `${why}: «${search}»`, ['delivery.arrival.address.search']);

/**
 * A searched address, read the way DL-CALC describes it: comma-separated elements, the town's name required
 * (a region before it picks among namesakes), a street and house after it. A postal code helps nothing but
 * the sandbox triggers: an index without a town it knows is not an address.
 */
function readSearch(search: string, options: DellinCalcOptions): Arrival {
  const parts = search
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const index = parts.find((p) => /^\d{6}$/.test(p));
  const names = parts.filter((p) => !/^\d{6}$/.test(p));
  let at = -1;
  let town: ReturnType<typeof findCity> = null;
  for (let i = 0; i < names.length && !town; i++) {
    const name = names[i]!.replace(/^(г\.?|город)\s+/i, '');
    town =
      findCity(i > 0 ? `${name}, ${names[i - 1]}` : name, index) ?? (i > 0 ? findCity(name, index) : null);
    if (town) at = i;
  }
  if (!town?.postalCode)
    return { ok: false, answer: notFound(search, 'Не удалось определить населённый пункт') };
  const street = at < names.length - 1;
  if (!street && options.streetlessSearch === 'refuse')
    return { ok: false, answer: notFound(search, 'Не удалось определить адрес с точностью до улицы') };
  const trigger = index !== undefined && ALL_TRIGGER_CODES.has(index);
  return { ok: true, index: trigger ? index : town.postalCode, variant: 'address' };
}

function readArrival(arrival: unknown, options: DellinCalcOptions): Arrival {
  if (!isRecord(arrival)) return { ok: false, answer: badField('delivery.arrival') };
  if (arrival.variant === 'terminal') {
    const id = Number(arrival.terminalID);
    const terminal = Number.isInteger(id) ? dellinTerminalById(id) : undefined;
    if (!terminal)
      return {
        ok: false,
        answer: error(400, 117004, 'значение не найдено в справочнике', 'терминал не найден', [
          'delivery.arrival.terminalID',
        ]),
      };
    return { ok: true, index: terminal.city.postalCode ?? '000000', variant: 'terminal' };
  }
  if (arrival.variant !== 'address') return { ok: false, answer: badField('delivery.arrival.variant') };
  // DL-CALC: `city` «Передача параметра невозможна, только если заказана доставка до адреса» (audit DL3).
  if (arrival.city !== undefined)
    return {
      ok: false,
      answer: badField(
        'delivery.arrival.city',
        'Передача параметра city невозможна при доставке до адреса (variant "address")',
      ),
    };
  const time = arrival.time;
  if (
    !isRecord(time) ||
    typeof time.worktimeStart !== 'string' ||
    !TIME.test(time.worktimeStart) ||
    typeof time.worktimeEnd !== 'string' ||
    !TIME.test(time.worktimeEnd)
  ) {
    return { ok: false, answer: badField('delivery.arrival.time') };
  }
  const given = ['terminalID', 'addressID', 'address'].filter((k) => arrival[k] !== undefined);
  if (given.length !== 1)
    return {
      ok: false,
      answer: badField('delivery.arrival', 'Нужен ровно один из параметров terminalID, addressID, address'),
    };
  const search = isRecord(arrival.address) ? arrival.address.search : undefined;
  if (typeof search !== 'string' || search.trim() === '')
    return { ok: false, answer: badField('delivery.arrival.address.search') };
  return readSearch(search, options);
}

/** Sundays the terminals take no cargo: 180012, and the client asks for the next day (protocols.md §4.4). */
function isSunday(date: string): boolean {
  return new Date(`${date}T00:00:00Z`).getUTCDay() === 0;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function roubles(kopecks: number): number {
  return Number(`${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`);
}

/** @param today the simulator's date in Moscow ("YYYY-MM-DD"): produce dates before it are refused. */
export function answerCalculator(
  body: Record<string, unknown>,
  appkey: string,
  today: string,
  options: DellinCalcOptions = {},
): DellinSimAnswer {
  const auth = checkAppkey(body, appkey);
  if (auth) return auth;
  const delivery = body.delivery;
  if (!isRecord(delivery)) return badField('delivery');
  const type = isRecord(delivery.deliveryType) ? delivery.deliveryType.type : undefined;
  if (!['auto', 'express', 'letter', 'avia', 'small'].includes(String(type)))
    return badField('delivery.deliveryType.type');
  const derival = delivery.derival;
  if (!isRecord(derival)) return badField('delivery.derival');
  if (typeof derival.produceDate !== 'string' || !DATE.test(derival.produceDate))
    return badField('delivery.derival.produceDate');
  if (derival.variant !== 'terminal')
    return badField('delivery.derival.variant', 'Симулятор принимает груз только на терминале');
  const from = dellinTerminalById(Number(derival.terminalID));
  if (!from)
    return error(400, 117004, 'значение не найдено в справочнике', 'терминал не найден', [
      'delivery.derival.terminalID',
    ]);
  const arrival = readArrival(delivery.arrival, options);
  if (!arrival.ok) return arrival.answer;

  const cargo = body.cargo;
  if (!isRecord(cargo)) return badField('cargo');
  for (const f of ['length', 'width', 'height', 'weight', 'totalVolume', 'totalWeight'] as const) {
    if (!positive(cargo[f])) return badField(`cargo.${f}`);
  }
  if (!Number.isInteger(cargo.quantity) || (cargo.quantity as number) < 1) return badField('cargo.quantity');
  const weight = cargo.totalWeight as number;
  const volume = cargo.totalVolume as number;
  const longest = Math.max(cargo.length as number, cargo.width as number, cargo.height as number);
  // Oversized places must be declared as such (DL-PD: auto over 100 kg or a side over 3 m).
  if (
    ((cargo.weight as number) > 100 || longest > 3) &&
    (!positive(cargo.oversizedWeight) || !positive(cargo.oversizedVolume))
  ) {
    return badField(
      'cargo.oversizedWeight',
      'Для негабаритного груза укажите oversizedWeight и oversizedVolume',
    );
  }
  // Several places (DL-CALC, xylocode Calc1/Req/Cargo.cs): `weight` is the heaviest place and `totalWeight` all
  // of them, so the heaviest can neither outweigh the total nor, times the count, fall short of it; the
  // oversized places' weight and volume are a part of the totals.
  const quantity = cargo.quantity as number;
  const heaviest = cargo.weight as number;
  if (heaviest > weight + 1e-9 || heaviest * quantity < weight - 1e-9)
    return badField(
      'cargo.weight',
      'Вес самого тяжёлого места не согласуется с общим весом и количеством мест',
    );
  if (
    (positive(cargo.oversizedWeight) && cargo.oversizedWeight > weight + 1e-9) ||
    (positive(cargo.oversizedVolume) && cargo.oversizedVolume > volume + 1e-9)
  )
    return badField('cargo.oversizedWeight', 'Негабаритная часть больше всего груза');
  const insurance = cargo.insurance;
  if (
    insurance !== undefined &&
    (!isRecord(insurance) ||
      typeof insurance.statedValue !== 'number' ||
      insurance.statedValue < 0 ||
      // «Максимальная длина поля - 12 символов» (xylocode Calc1/Req/Insurance.cs).
      String(insurance.statedValue).length > 12 ||
      (insurance.term !== undefined && typeof insurance.term !== 'boolean'))
  )
    return badField('cargo.insurance.statedValue');
  const payment = body.payment;
  if (!isRecord(payment) || !['cash', 'noncash'].includes(String(payment.type)))
    return badField('payment.type');
  if (typeof payment.paymentCity !== 'string' || !dellinCityByKladr(payment.paymentCity))
    return badField('payment.paymentCity');

  switch (sandboxBehaviour('dellin', arrival.index)) {
    case 'timeout':
      return { kind: 'hang' };
    case 'error':
      return {
        kind: 'reply',
        status: 500,
        body: {
          metadata: { status: 500, detail: 'Internal Server Error', generated_at: stamp(new Date()) },
          errors: [{ code: 500000, title: 'Внутренняя ошибка сервера', detail: 'Повторите запрос позже' }],
        },
      };
    case 'no_service':
      return error(
        400,
        180003,
        'Терминал не может принять груз',
        'Нет терминала, принимающего груз с такими габаритами',
        ['cargo'],
      );
    case 'ok':
      break;
  }
  if (derival.produceDate < today || isSunday(derival.produceDate)) {
    return error(400, 180012, 'Дата недоступна', 'Выбранная дата отправки недоступна', [
      'delivery.derival.produceDate',
    ]);
  }
  // A road train: 20 t and 90 m³ is more than any terminal takes as one consignment.
  if (weight > 20_000 || volume > 90)
    return error(400, 180003, 'Терминал не может принять груз', 'Превышены допустимые габариты', ['cargo']);

  // Freight: chargeable weight with 250 kg per m³, a minimum, then per kg by zone; delivery to an address adds a
  // city leg. Cheap per kg for heavy cargo, dear for a small parcel.
  const zone = zoneOf(from.city.postalCode ?? '000000', arrival.index);
  const chargeableKg = Math.max(weight, volume * 250);
  const intercity = Math.max(45_000, Math.round(chargeableKg * (500 + zone * 300)));
  const derivalLeg = 0;
  const arrivalLeg = arrival.variant === 'address' ? 60_000 + Math.round(chargeableKg * 250) : 0;
  const insuranceLeg = isRecord(insurance) ? Math.round((insurance.statedValue as number) * 100 * 0.003) : 0;
  const total = derivalLeg + intercity + arrivalLeg + insuranceLeg;

  const transit = 2 + zone;
  const produce = derival.produceDate;
  const arriveTerminal = addDays(produce, transit);
  // To the address: one day from the receiving terminal (`deliveryTerm`). The day itself
  // (derivalToAddress … Max) Dellin answers for avia and express only (xylocode OrderDates.cs; audit DL9).
  const doorDays = 1;
  const fast = type === 'avia' || type === 'express';
  const dates =
    arrival.variant === 'terminal'
      ? {
          giveoutFromOspReceiver: `${arriveTerminal} 10:00:00`,
          giveoutFromOspReceiverMax: addDays(arriveTerminal, 2),
        }
      : {
          derivalFromOspReceiver: addDays(arriveTerminal, doorDays),
          ...(fast
            ? {
                derivalToAddress: `${addDays(arriveTerminal, doorDays)} 09:00:00`,
                derivalToAddressMax: `${addDays(arriveTerminal, doorDays + 1)} 18:00:00`,
              }
            : {}),
        };
  return {
    kind: 'reply',
    status: 200,
    body: {
      metadata: { status: 200, generated_at: stamp(new Date()) },
      data: {
        price: roubles(total),
        priceMinimal: 'auto',
        availableDeliveryTypes: { auto: roubles(total) },
        derival: { terminal: from.name, price: roubles(derivalLeg), contractPrice: false },
        intercity: { price: roubles(intercity), contractPrice: false, premium: 0, discount: 0 },
        arrival: { price: roubles(arrivalLeg), contractPrice: false },
        insurance: roubles(insuranceLeg),
        orderDates: {
          pickup: produce,
          arrivalToOspSender: produce,
          derivalFromOspSender: addDays(produce, 1),
          arrivalToOspReceiver: arriveTerminal,
          ...dates,
        },
        ...(arrival.variant === 'address' ? { deliveryTerm: doorDays } : {}),
      },
    },
  };
}
