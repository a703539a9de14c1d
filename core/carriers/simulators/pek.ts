// A local PEK cabinet API (verified-2026.md §5) for sandbox mode and tests: POST /branches/findzonebyaddress/,
// POST /calculator/calculateprice/ and GET /typesOfDelivery/all/ under /api/v1, HTTP Basic checked, JSON
// validated like PEK (400 "Ошибка валидации" with `fields`), addresses read in PEK's documented order
// (pek-geocoder.ts), logical errors inside HTTP 200, per-product refusals as `transfers[].hasError`, a route
// it does not serve as a root `hasError`, and, when asked to, PEK's 100 requests a minute (429). The adapter
// runs against it unchanged. Answers in pek-answers.ts, prices from pek-network.ts.
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import {
  answer,
  isRecord,
  KNOWN_TYPES,
  pekError,
  readCargos,
  routeRefused,
  typesOfDelivery,
  validation,
  type Json,
} from './pek-answers';
import { geocodePekAddress, type PekPlace } from './pek-geocoder';
import {
  pekPrice,
  pekWarehouseById,
  pekWarehouseOf,
  simGuid,
  SIM_LIMITS,
  type PekWarehouse,
} from './pek-network';
import { readBody } from './read-body';

export interface PekSimulatorOptions {
  latencyMs?: number;
  login?: string;
  apiKey?: string;
  /**
   * A door address without a street is refused (400, field `delivery.address`) instead of priced to the town.
   * What PEK does with one is unpublished (audit P5): the default prices it, this models the refusal.
   */
  streetRequired?: boolean;
  /**
   * PEK's limit, 100 requests a minute per account (verified-2026 §5.5): above it, 429. Off by default: the
   * sandbox adapter has no limiter (the simulator is not PEK) and the load suites run far more than that.
   */
  requestsPerMinute?: number;
}

/** The simulator's own account (PEK publishes no test credentials). */
export const PEK_SIM_LOGIN = 'ratedesk-sandbox';
export const PEK_SIM_API_KEY = 'ratedesk-sandbox-pek-key';

const BASE = '/api/v1';
const ROUTES = new Map([
  [`${BASE}/branches/findzonebyaddress/`, 'POST'],
  [`${BASE}/calculator/calculateprice/`, 'POST'],
  // The one GET of PEK's API (verified-2026 §5.1, PK-GL TypesofdeliveryAll).
  [`${BASE}/typesOfDelivery/all/`, 'GET'],
]);

type Located = { ok: false; message: string } | { ok: true; place: PekPlace; warehouse: PekWarehouse | null };

export function startPekSimulator(options: PekSimulatorOptions = {}): Promise<SimulatorHandle> {
  const expected = `Basic ${Buffer.from(`${options.login ?? PEK_SIM_LOGIN}:${options.apiKey ?? PEK_SIM_API_KEY}`).toString('base64')}`;
  // Warehouse ids handed out for addresses carrying a sandbox trigger code, so calculateprice can see it.
  const tagged = new Map<string, PekWarehouse>();

  type Send = SimulatorExchange['send'];
  function json(send: Send, status: number, body: Json | Json[]): void {
    send(status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8' });
  }

  /** The warehouse serving an address; trigger-coded addresses get an id of their own. */
  function locate(address: string): Located {
    const geo = geocodePekAddress(address);
    if (!geo.ok) return geo;
    const { place } = geo;
    const main = pekWarehouseOf(place.city);
    if (!main || !place.postalCode || !ALL_TRIGGER_CODES.has(place.postalCode))
      return { ok: true, place, warehouse: main };
    const id = simGuid(`pek-trigger ${place.postalCode} ${main.id}`);
    const w: PekWarehouse = { ...main, id, postalCode: place.postalCode };
    tagged.set(id, w);
    return { ok: true, place, warehouse: w };
  }

  /** Requests of each account within the last minute (only with `requestsPerMinute`). */
  const sent = new Map<string, number[]>();
  function overLimit(account: string): boolean {
    if (options.requestsPerMinute === undefined) return false;
    const now = performance.now();
    const recent = (sent.get(account) ?? []).filter((t) => t > now - 60_000);
    const over = recent.length >= options.requestsPerMinute;
    if (!over) recent.push(now);
    sent.set(account, recent);
    return over;
  }

  function warehouseById(id: string): PekWarehouse | null {
    if (tagged.has(id)) return tagged.get(id)!;
    return pekWarehouseById(id);
  }

  function findZone(body: unknown): { status: number; body: Json | Json[] } {
    if (!isRecord(body)) return validation({ address: 'Значение должно быть объектом' });
    if (typeof body.address !== 'string' || body.address.trim() === '') {
      return validation({ address: 'Необходимо заполнить «address»' });
    }
    const located = locate(body.address);
    // An address not in PEK's order: PEK's 400 envelope, which glook documents for this method.
    if (!located.ok) return validation({ address: located.message }, 'Не удалось определить адрес');
    const w = located.warehouse;
    // Outside PEK's zone: an empty answer (verified-2026.md §5.2).
    if (!w) return { status: 200, body: {} };
    return {
      status: 200,
      body: {
        branchCode: w.city.name.slice(0, 3).toUpperCase(),
        branchTitle: w.city.name,
        branchUID: simGuid(`pek-branch ${w.city.name} ${w.city.region}`),
        mainWarehouseId: w.id,
        zoneId: simGuid(`pek-zone ${w.city.name}`),
        zoneName: `${w.city.name} (основная зона)`,
        warehousePoint: { latitude: w.city.lat, longitude: w.city.lon },
      },
    };
  }

  function calculate(body: unknown): { status: number; body: Json } | 'hang' {
    if (!isRecord(body)) return validation({ body: 'Значение должно быть объектом' });
    // The current protocol: `types` is required; transportingTypes is "not used" (verified-2026.md §5.2).
    const types = body.types;
    if (!Array.isArray(types) || types.length === 0) {
      return validation({ types: 'Необходимо заполнить «types»' });
    }
    if (!types.every((t) => Number.isInteger(t) && KNOWN_TYPES.has(t as number))) {
      return validation({ types: 'Неизвестный продукт' });
    }
    const cargos = body.cargos;
    const parsedCargos = readCargos(cargos);
    if (!Array.isArray(parsedCargos)) return parsedCargos;
    if (body.isPickUp === true) {
      // A pickup (забор) needs the pickup address.
      if (!isRecord(body.pickup)) return validation({ pickup: 'Необходимо заполнить «pickup»' });
    } else if (typeof body.senderWarehouseId !== 'string' || body.senderWarehouseId === '') {
      return validation({ senderWarehouseId: 'Необходимо заполнить «senderWarehouseId»' });
    }
    const door = body.isDelivery === true;
    let doorAddress: string | null = null;
    if (door) {
      if (
        !isRecord(body.delivery) ||
        typeof body.delivery.address !== 'string' ||
        !body.delivery.address.trim()
      ) {
        return validation({ 'delivery.address': 'Необходимо заполнить «delivery»' });
      }
      doorAddress = body.delivery.address;
    } else if (typeof body.receiverWarehouseId !== 'string' || body.receiverWarehouseId === '') {
      return validation({ receiverWarehouseId: 'Необходимо заполнить «receiverWarehouseId»' });
    }
    if (
      body.isInsurance === true &&
      (typeof body.isInsurancePrice !== 'number' || body.isInsurancePrice < 0)
    ) {
      return validation({ isInsurancePrice: 'Необходимо указать стоимость груза, руб.' });
    }

    // Unknown warehouses are a logical error inside HTTP 200, as PEK reports them. A pickup is priced from
    // the warehouse serving the pickup address.
    let sender: PekWarehouse | null;
    if (body.isPickUp === true) {
      const pickup = (body.pickup as Record<string, unknown>).address;
      const located = typeof pickup === 'string' ? locate(pickup) : null;
      if (located && !located.ok) return validation({ 'pickup.address': located.message });
      sender = located?.warehouse ?? null;
    } else sender = warehouseById(body.senderWarehouseId as string);
    if (!sender) return { status: 200, body: pekError('Ошибка расчета', 'Не найден склад отправителя') };
    let receiver: PekWarehouse | null;
    let triggerPostal: string | null;
    if (doorAddress !== null) {
      const located = locate(doorAddress);
      if (!located.ok)
        return validation({ 'delivery.address': located.message }, 'Не удалось определить адрес доставки');
      if (options.streetRequired && located.place.city && !located.place.street) {
        return validation(
          { 'delivery.address': 'Укажите адрес с точностью до улицы и дома' },
          'Не удалось определить координаты адреса доставки',
        );
      }
      receiver = located.warehouse;
      triggerPostal = located.place.postalCode;
    } else {
      receiver = warehouseById(body.receiverWarehouseId as string);
      if (!receiver) return { status: 200, body: pekError('Ошибка расчета', 'Не найден склад получателя') };
      triggerPostal = receiver.postalCode;
    }
    switch (sandboxBehaviour('pek', triggerPostal)) {
      case 'timeout':
        return 'hang';
      case 'error':
        return {
          status: 200,
          body: pekError('Ошибка расчета', 'Внутренняя ошибка сервиса расчета стоимости'),
        };
      case 'no_service':
        return { status: 200, body: routeRefused('Нет возможности доставки по указанному направлению') };
      case 'ok':
        break;
    }
    if (!receiver) return { status: 200, body: routeRefused('Адрес доставки вне зоны обслуживания ПЭК') };
    const to = receiver;
    const insurance = body.isInsurance === true ? (body.isInsurancePrice as number) : 0;
    const longest = Math.max(...parsedCargos.flatMap((c) => [c.length, c.width, c.height]));
    const heaviest = Math.max(...parsedCargos.map((c) => c.weight));
    const refusal = (type: number): string | null => {
      if (type === 5) return 'Расчет по продукту ПЭК:Express Авто данным методом недоступен';
      const leg = door ? SIM_LIMITS.door : SIM_LIMITS.terminal;
      const product = SIM_LIMITS[type as 1 | 3 | 12];
      if (
        heaviest > Math.min(leg.maxWeightKg, product.maxWeightKg) ||
        longest > Math.min(leg.maxDimensionM, product.maxDimensionM)
      ) {
        return 'Груз превышает ограничения отделения по весу или габаритам';
      }
      return null;
    };
    const body200 = answer(types as number[], refusal, (type) => {
      const price = pekPrice(type, sender, to.city.postalCode, parsedCargos, door, insurance);
      return price;
    });
    return {
      status: 200,
      body: { ...body200, branchSender: sender.city.name, branchReceiver: to.city.name },
    };
  }

  async function handle({ req, send }: SimulatorExchange): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    const route = url.pathname;
    const method = ROUTES.get(route);
    if (method === undefined) return json(send, 404, pekError('Not Found', `Метод ${route} не найден`, 404));
    if (req.method !== method)
      return json(send, 405, pekError('Method Not Allowed', `Используйте ${method}`, 405));
    const account = req.headers.authorization;
    if (account !== expected) {
      return json(send, 401, pekError('Ошибка авторизации', 'Неверный логин или ключ API', 401));
    }
    if (overLimit(account)) {
      const limit = String(options.requestsPerMinute);
      const message = `Превышено ограничение: ${limit} запросов в минуту`;
      return json(send, 429, pekError('Too Many Requests', message, 429));
    }
    if (method === 'GET') return json(send, 200, typesOfDelivery());
    if (text === null) return json(send, 413, pekError('Payload Too Large', 'Слишком большой запрос', 413));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(send, 400, validation({ body: 'Некорректный JSON' }).body);
    }
    if (route.endsWith('/findzonebyaddress/')) {
      const r = findZone(body);
      return json(send, r.status, r.body);
    }
    const r = calculate(body);
    if (r === 'hang') return; // never answered; close() destroys the socket
    json(send, r.status, r.body);
  }

  return startSimulatorServer(handle, {
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    basePath: BASE,
    onError: ({ send }) =>
      json(send, 500, pekError('Internal Server Error', 'Внутренняя ошибка сервера', 500)),
  });
}
