// A local PEK cabinet API (verified-2026.md §5) for sandbox mode and tests: POST /branches/findzonebyaddress/
// and POST /calculator/calculateprice/ under /api/v1, HTTP Basic checked, JSON validated like PEK
// (400 "Ошибка валидации" with `fields`), logical errors inside HTTP 200, per-product refusals as
// `transfers[].hasError`, so the adapter runs against it unchanged. Prices from pek-network.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_TRIGGER_CODES, sandboxBehaviour } from '../sandbox-triggers';
import { placeOfAddress } from './address-place';
import { answerAfter, type SimulatorHandle } from './handle';
import {
  pekPrice,
  pekWarehouseById,
  pekWarehouseOf,
  simGuid,
  SIM_LIMITS,
  type PekWarehouse,
  type SimCargo,
} from './pek-network';
import { readBody } from './read-body';

export interface PekSimulatorOptions {
  latencyMs?: number;
  login?: string;
  apiKey?: string;
}

/** The simulator's own account (PEK publishes no test credentials). */
export const PEK_SIM_LOGIN = 'ratedesk-sandbox';
export const PEK_SIM_API_KEY = 'ratedesk-sandbox-pek-key';

const BASE = '/api/v1';
/** Product ids the calculator accepts (`/typesOfDelivery/all/`); 5 (Express Авто) it cannot calculate. */
const KNOWN_TYPES: ReadonlySet<number> = new Set([1, 3, 5, 12]);
const PRODUCT_NAMES: Readonly<Record<number, string>> = {
  1: 'Express Авиа',
  3: 'LTL Авто',
  5: 'ПЭК:Express Авто',
  12: 'EasyWay Авто',
};

type Json = Record<string, unknown>;

function pekError(title: string, message: string, status?: number, fields?: Record<string, string>): Json {
  return {
    error: {
      title,
      message,
      ...(status === undefined ? {} : { status }),
      ...(fields ? { fields: Object.entries(fields).map(([key, m]) => ({ key, value: [m] })) } : {}),
    },
  };
}

function validation(fields: Record<string, string>): { status: 400; body: Json } {
  return {
    status: 400,
    body: pekError('Ошибка валидации', 'Переданы некорректные данные', 400, fields),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function startPekSimulator(options: PekSimulatorOptions = {}): Promise<SimulatorHandle> {
  const latencyMs = Math.max(0, options.latencyMs ?? 0);
  const expected = `Basic ${Buffer.from(`${options.login ?? PEK_SIM_LOGIN}:${options.apiKey ?? PEK_SIM_API_KEY}`).toString('base64')}`;
  const timers = new Set<NodeJS.Timeout>();
  // Warehouse ids handed out for addresses carrying a sandbox trigger code, so calculateprice can see it.
  const tagged = new Map<string, PekWarehouse>();
  let requests = 0;

  function send(res: ServerResponse, arrivedAt: number, status: number, body: Json | Json[]): void {
    answerAfter(latencyMs, arrivedAt, timers, () => {
      if (res.destroyed) return;
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  }

  /** The warehouse serving an address; trigger-coded addresses get an id of their own. */
  function warehouseForAddress(address: string): PekWarehouse | null {
    const place = placeOfAddress(address);
    const main = pekWarehouseOf(place.city);
    if (!main) return null;
    if (!place.postalCode || !ALL_TRIGGER_CODES.has(place.postalCode)) return main;
    const id = simGuid(`pek-trigger ${place.postalCode} ${main.id}`);
    const w: PekWarehouse = { ...main, id, postalCode: place.postalCode };
    tagged.set(id, w);
    return w;
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
    const w = warehouseForAddress(body.address);
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
    if (body.isPickUp === true) {
      // A pickup (забор) needs the pickup address.
      if (!isRecord(body.pickup)) return validation({ pickup: 'Необходимо заполнить «pickup»' });
    } else if (typeof body.senderWarehouseId !== 'string' || body.senderWarehouseId === '') {
      return validation({ senderWarehouseId: 'Необходимо заполнить «senderWarehouseId»' });
    }
    const door = body.isDelivery === true;
    let receiver: PekWarehouse | null;
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
    const sender =
      body.isPickUp === true
        ? typeof (body.pickup as Record<string, unknown>).address === 'string'
          ? warehouseForAddress((body.pickup as Record<string, unknown>).address as string)
          : null
        : warehouseById(body.senderWarehouseId as string);
    if (!sender) return { status: 200, body: pekError('Ошибка расчета', 'Не найден склад отправителя') };
    if (!door) {
      receiver = warehouseById(body.receiverWarehouseId as string);
      if (!receiver) return { status: 200, body: pekError('Ошибка расчета', 'Не найден склад получателя') };
    } else {
      receiver = warehouseForAddress(doorAddress!);
    }
    const triggerPostal = door ? placeOfAddress(doorAddress!).postalCode : receiver?.postalCode;
    switch (sandboxBehaviour('pek', triggerPostal)) {
      case 'timeout':
        return 'hang';
      case 'error':
        return {
          status: 200,
          body: pekError('Ошибка расчета', 'Внутренняя ошибка сервиса расчета стоимости'),
        };
      case 'no_service':
        return {
          status: 200,
          body: answer(types as number[], () => 'Нет возможности доставки по указанному направлению'),
        };
      case 'ok':
        break;
    }
    if (!receiver) {
      return {
        status: 200,
        body: answer(types as number[], () => 'Адрес доставки вне зоны обслуживания ПЭК'),
      };
    }
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

  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    requests++;
    void handle(req, res, arrivedAt).catch(() =>
      send(res, arrivedAt, 500, pekError('Internal Server Error', 'Внутренняя ошибка сервера', 500)),
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse, arrivedAt: number): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    if (req.method !== 'POST')
      return send(res, arrivedAt, 405, pekError('Method Not Allowed', 'Используйте POST', 405));
    const route = url.pathname;
    if (route !== `${BASE}/branches/findzonebyaddress/` && route !== `${BASE}/calculator/calculateprice/`) {
      return send(res, arrivedAt, 404, pekError('Not Found', `Метод ${route} не найден`, 404));
    }
    if (req.headers.authorization !== expected) {
      return send(res, arrivedAt, 401, pekError('Ошибка авторизации', 'Неверный логин или ключ API', 401));
    }
    if (text === null)
      return send(res, arrivedAt, 413, pekError('Payload Too Large', 'Слишком большой запрос', 413));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, arrivedAt, 400, validation({ body: 'Некорректный JSON' }).body);
    }
    if (route.endsWith('/findzonebyaddress/')) {
      const r = findZone(body);
      return send(res, arrivedAt, r.status, r.body);
    }
    const r = calculate(body);
    if (r === 'hang') return; // never answered; close() destroys the socket
    send(res, arrivedAt, r.status, r.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The calculateprice answer for `types`: a refused product gets `hasError` with its reason; the others a price
 * (roubles with decimals), calendar days in `estDeliveryTime` and the same as strings in `commonTerms`.
 */
function answer(
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
    if (p.insurance) services.push({ serviceType: 'insurance', cost: p.insurance / 100, services: [] });
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
