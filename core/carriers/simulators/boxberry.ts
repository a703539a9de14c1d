// A local Boxberry API (protocols.md §3, verified-2026 §3) for sandbox mode and tests: one json.php endpoint,
// `POST` with a JSON body for DeliveryCalculation, `GET ?token=…&method=…` for ListCitiesFull and ZipCheck,
// every answer HTTP 200 with Boxberry's error forms inside, as strict as Boxberry: bad token, form-encoded
// body, missing or fractional fields, unknown city codes. Prices from the shared deterministic model.
// Answers are written as Boxberry's PHP writes them, Cyrillic as \uXXXX (a captured answer in the
// iamwildtuna/boxberry-sdk README), so ListCitiesFull has the real row size (~730 bytes) at a real count
// (boxberry-cities.ts): about 2 MB, over the HTTP client's 1 MiB cap, as the audit expects of the real one (B5).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import {
  boxberryCities,
  boxberryCityByCode,
  courierCityForZip,
  type SimBoxberryCity,
} from './boxberry-cities';
import { answerListPoints } from './boxberry-points';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { chargeableGrams, modelPriceKopecks, zoneOf } from './tariff-model';
import { readBody } from './read-body';

export interface BoxberrySimulatorOptions {
  latencyMs?: number;
  /** The only token accepted. */
  token?: string;
}

export interface BoxberrySimulatorHandle extends SimulatorHandle {
  /** Requests per Boxberry method (DeliveryCalculation, ListCitiesFull, ZipCheck, …). */
  methodCount(method: string): number;
}

/** Boxberry's published maxima as its official plugin applies them (core/carriers/boxberry/limits.ts). */
const MAX_WEIGHT_GRAMS = 31_000;
const MAX_SUM_OF_SIDES_CM = 250;
/** Boxberry is mid-priced; its courier costs more than a pickup point. */
const PICKUP_FACTOR = 1.05;
const COURIER_FACTOR = 1.45;
/** Declared-value fee, per cent of OrderSum: it is the PriceService part of the total. */
const DECLARED_VALUE_PERCENT = 0.5;
/** Cash-on-delivery fee, per cent of PaySum, also inside PriceService (the simulator's own figure). */
const COD_PERCENT = 1.5;

type Json = Record<string, unknown> | unknown[];

export async function startBoxberrySimulator(
  options: BoxberrySimulatorOptions = {},
): Promise<BoxberrySimulatorHandle> {
  const token = options.token ?? 'boxberry-simulator-token';
  const exchanges = new WeakMap<ServerResponse, SimulatorExchange>();
  const methods = new Map<string, number>();

  function send(res: ServerResponse, body: Json, status = 200): void {
    sendText(res, () => phpJson(body), status);
  }

  /** The city lists come written already (writeLists below); everything else is written per answer. */
  function sendText(res: ServerResponse, text: () => string, status = 200): void {
    exchanges.get(res)?.send(status, text(), { 'content-type': 'application/json; charset=utf-8' });
  }

  function get(res: ServerResponse, q: URLSearchParams): void {
    const method = q.get('method') ?? '';
    count(method);
    // List-returning methods answer errors as a list (protocols.md §3.6).
    if (q.get('token') !== token) return send(res, [{ err: 'Неверный токен (token)' }]);
    switch (method) {
      case 'ListCitiesFull':
      case 'ListCities': {
        const country = q.get('CountryCode') ?? '643';
        if (country !== '643') return send(res, []);
        return sendText(res, () => cityListText(method));
      }
      case 'ZipCheck': {
        const zip = q.get('Zip') ?? '';
        if (!/^\d{6}$/.test(zip)) return send(res, [{ err: 'Индекс должен состоять из 6 цифр' }]);
        // Every carrier's trigger index counts as served, so the trigger reaches DeliveryCalculation.
        const served = ALL_TRIGGER_CODES.has(zip) || courierCityForZip(zip) !== undefined;
        return send(res, [
          { ExpressDelivery: served ? 1 : 0, ZoneExpressDelivery: served ? '1' : '', Remoteness: 0 },
        ]);
      }
      case 'ListPoints':
        return send(res, answerListPoints(q) as Json);
      case 'DeliveryCalculation':
        return send(res, { err: 'Метод DeliveryCalculation принимает только POST с телом JSON' });
      default:
        return send(res, [{ err: `Метод ${method || '(не указан)'} не найден` }]);
    }
  }

  function post(res: ServerResponse, text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // A form-encoded body (the SDK mistake verified-2026 warns of) carries no readable token.
      count('(unreadable)');
      return send(res, { err: 'Не передан токен (token)' });
    }
    if (!isRecord(body)) return send(res, { err: 'Не передан токен (token)' });
    count(typeof body.method === 'string' ? body.method : '(none)');
    if (body.token !== token) return send(res, { err: 'Неверный токен (token)' });
    if (body.method !== 'DeliveryCalculation')
      return send(res, { err: `Метод ${String(body.method)} не найден` });
    const zip = typeof body.Zip === 'string' && body.Zip !== '' ? body.Zip : null;
    switch (sandboxBehaviour('boxberry', zip)) {
      case 'timeout':
        return; // never answers; close() destroys the socket
      case 'error':
        return send(res, {
          error: true,
          message: 'Внутренняя ошибка сервиса расчета, повторите запрос позже',
        });
      case 'no_service':
        return send(res, calculation(noPrice(body.DeliveryType)));
      case 'ok':
        break;
    }
    const checked = validate(body);
    if ('message' in checked) return send(res, { error: true, message: checked.message });
    send(res, calculation(price(checked)));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    if (url.pathname !== '/json.php') {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>404 Not Found</h1>');
      return;
    }
    if (text === null) return send(res, { err: 'Слишком большой запрос' });
    if (req.method === 'GET') return get(res, url.searchParams);
    if (req.method === 'POST') return post(res, text);
    res.writeHead(405, { allow: 'GET, POST' });
    res.end();
  }

  function count(method: string): void {
    methods.set(method, (methods.get(method) ?? 0) + 1);
  }

  const server = await startSimulatorServer(
    (exchange) => {
      exchanges.set(exchange.res, exchange);
      return handle(exchange.req, exchange.res);
    },
    {
      latencyMs: options.latencyMs ?? 0,
      basePath: '/json.php',
      onError: ({ res }) => send(res, { err: 'Внутренняя ошибка сервера' }),
    },
  );
  return { ...server, methodCount: (method) => methods.get(method) ?? 0 };
}

/**
 * The two lists, written once per process: they never change, and writing ~2 MB of escaped JSON costs tens of
 * milliseconds a time, which a quote's short timeout should not pay on every cold adapter. ListCities is the
 * towns with pickup points, in the same row shape without `PickupPoint` (gwinn listCities.json).
 */
const cityListTexts = new Map<'ListCitiesFull' | 'ListCities', string>();
function cityListText(method: 'ListCitiesFull' | 'ListCities'): string {
  let text = cityListTexts.get(method);
  if (text === undefined) {
    const rows =
      method === 'ListCitiesFull'
        ? boxberryCities().map(cityRow)
        : boxberryCities()
            .filter((c) => c.pickupPoint)
            .map((c) => {
              const { PickupPoint: _pickup, ...row } = cityRow(c);
              return row;
            });
    text = phpJson(rows);
    cityListTexts.set(method, text);
  }
  return text;
}

/** A row as the gwinn fixture listCitiesFull.json has it: region without its type, a UniqName naming both. */
function cityRow(c: SimBoxberryCity): Record<string, string> {
  const flag = (b: boolean): string => (b ? '1' : '0');
  const region = c.city.region
    .replace(/\s+(область|край|автономный округ|автономная область)$/u, '')
    .replace(/^Республика\s+|\s+Республика$/u, '');
  const district = c.locality?.district ?? '';
  return {
    Code: c.code,
    Name: c.city.name,
    ReceptionLaP: flag(c.reception),
    DeliveryLaP: flag(c.pickupPoint || c.courier),
    Reception: flag(c.reception),
    PickupPoint: flag(c.pickupPoint),
    CourierDelivery: flag(c.courier),
    ForeignReceptionReturns: flag(c.reception),
    Terminal: flag(c.city.population >= 500_000),
    Kladr: c.city.kladrId,
    Region: region,
    CountryCode: '643',
    UniqName: district
      ? `${c.city.name} (${c.city.region} ${district} р-н)`
      : `${c.city.name} (${c.city.region})`,
    District: district,
    Prefix: c.locality?.prefix ?? 'г',
    CourierReception: flag(c.courier),
  };
}

/** JSON as PHP's json_encode writes it by default: every non-ASCII character and "/" escaped. */
export function phpJson(body: unknown): string {
  return JSON.stringify(body)
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

interface Checked {
  from: SimBoxberryCity;
  to: SimBoxberryCity;
  type: 1 | 2 | null;
  /** Every place (BoxSizes[]): its weight and sides (Depth, Width, Height). */
  boxes: { weight: number; sides: [number, number, number] }[];
  orderSumKopecks: number;
  paySumKopecks: number;
}

/** Roubles with at most two decimals → kopecks, or null when Boxberry would refuse the figure. */
function sumKopecks(value: unknown): number | null {
  if (typeof value !== 'number' || value < 0 || !/^\d+(\.\d{1,2})?$/.test(String(value))) return null;
  const [whole, frac = ''] = String(value).split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

function validate(body: Record<string, unknown>): Checked | { message: string } {
  const senderId = body.SenderCityId;
  const recipientId = body.RecipientCityId;
  if (body.TargetStart === undefined && (typeof senderId !== 'string' || senderId === ''))
    return { message: 'Не указан город отправителя (SenderCityId)' };
  if (typeof recipientId !== 'string' || recipientId === '')
    return { message: 'Не указан город получателя (RecipientCityId)' };
  const from = boxberryCityByCode(String(senderId));
  if (!from) return { message: 'Не найден город отправителя' };
  // The simulator's own wording: what Boxberry answers for a sender town without a reception point is not
  // published (its cabinet offers only reception towns as senders).
  if (!from.reception) return { message: 'Прием отправлений в городе отправителя не осуществляется' };
  const to = boxberryCityByCode(recipientId);
  if (!to) return { message: 'Не найден город получателя' };
  let type: 1 | 2 | null = null;
  if (body.DeliveryType !== undefined && body.DeliveryType !== '') {
    const t = Number(body.DeliveryType);
    if (t !== 1 && t !== 2) return { message: 'Неверно указан тип доставки (DeliveryType)' };
    type = t;
  }
  const boxes = body.BoxSizes;
  if (!Array.isArray(boxes) || boxes.length === 0 || !boxes.every(isRecord))
    return { message: 'Не указаны вес и габариты мест (BoxSizes)' };
  const places: Checked['boxes'] = [];
  for (const box of boxes as Record<string, unknown>[]) {
    const values = [box.Width, box.Height, box.Depth, box.Weight];
    if (values.some((v) => v !== undefined && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)))
      return { message: 'Длина, Ширина, Высота и Вес каждого места в заказе должны быть целыми числами' };
    if (typeof box.Weight !== 'number' || box.Weight <= 0) return { message: 'Не указан вес места (Weight)' };
    places.push({
      weight: box.Weight,
      sides: [Number(box.Depth ?? 0), Number(box.Width ?? 0), Number(box.Height ?? 0)],
    });
  }
  const orderSum = sumKopecks(body.OrderSum ?? 0);
  if (orderSum === null) return { message: 'Неверно указана объявленная стоимость (OrderSum)' };
  // The simulator's own wording for a bad amount to collect; Boxberry's is not published.
  const paySum = sumKopecks(body.PaySum ?? 0);
  if (paySum === null) return { message: 'Неверно указана сумма к оплате (PaySum)' };
  return { from, to, type, boxes: places, orderSumKopecks: orderSum, paySumKopecks: paySum };
}

interface Cost {
  DeliveryTypeId: 1 | 2;
  PriceBase: number;
  PriceService: number;
  TotalPrice: number;
  DeliveryPeriod: number;
}

/** Both variants when DeliveryType is left out, else the one asked; a variant Boxberry lacks is left out. */
function price(c: Checked): Cost[] {
  // Each place within the plugin's guards (31 kg, 250 cm of sides); the places are priced by their summed
  // chargeable weight.
  const overLimits = c.boxes.some(
    ({ weight, sides: [l, w, h] }) => weight > MAX_WEIGHT_GRAMS || l + w + h > MAX_SUM_OF_SIDES_CM,
  );
  if (overLimits) return [];
  const zone = zoneOf(c.from.city.postalCode, c.to.city.postalCode);
  const grams = c.boxes.reduce(
    (sum, { weight, sides: [l, w, h] }) => sum + chargeableGrams(weight, l || 1, w || 1, h || 1),
    0,
  );
  const service =
    Math.round((c.orderSumKopecks * DECLARED_VALUE_PERCENT) / 100) +
    Math.round((c.paySumKopecks * COD_PERCENT) / 100);
  const out: Cost[] = [];
  for (const type of c.type === null ? ([1, 2] as const) : [c.type]) {
    if (type === 1 && !c.to.pickupPoint) continue;
    if (type === 2 && !c.to.courier) continue;
    const base = modelPriceKopecks(zone, grams, type === 1 ? PICKUP_FACTOR : COURIER_FACTOR) + 37; // x.37 ₽
    const period = Math.min(6, Math.max(2, zone + (type === 2 ? 1 : 0)));
    out.push({
      DeliveryTypeId: type,
      PriceBase: base / 100,
      PriceService: service / 100,
      TotalPrice: (base + service) / 100,
      DeliveryPeriod: period,
    });
  }
  return out;
}

/** Boxberry's "no rate" (the official plugin's test): the variant with PriceBase 0. */
function noPrice(asked: unknown): Cost[] {
  const types: ReadonlyArray<1 | 2> = asked === 1 || asked === 2 ? [asked] : [1, 2];
  return types.map((t) => ({
    DeliveryTypeId: t,
    PriceBase: 0,
    PriceService: 0,
    TotalPrice: 0,
    DeliveryPeriod: 0,
  }));
}

function calculation(costs: Cost[]): Json {
  return { error: false, result: { DeliveryCosts: costs } };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
