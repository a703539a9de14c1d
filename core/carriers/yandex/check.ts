// Yandex Delivery's live check (issue #15 item 6; docs/carriers.md, Yandex, "Live check"): the same API client
// and adapter the quotes use, against the endpoint and token in settings. `auth` is the cheapest call that needs
// the token (pickup-points/list for one documented point id); `directory` asks location/detect for Москва as
// the adapter's geo directory does; `size` asks pickup-points/list for Moscow with the adapter's bounded filter
// (geo_id and the first window, points.ts) and weighs the answer against the HTTP client's cap (audit Y6);
// `route` quotes Москва → Москва through the adapter: Yandex's test environment covers Moscow only (audit Y9).
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure } from '../check';
import { CarrierHttpError, MAX_CARRIER_RESPONSE_BYTES } from '../http';
import type { CarrierQuoteRequest } from '../types';
import { createYandexAdapter, type YandexAdapterOptions } from './adapter';
import { yandexAddress, yandexApi, type YandexApi } from './locations';
import {
  listPoints,
  pointListBody,
  pointWindow,
  YANDEX_POINT_WINDOWS_KM,
  YANDEX_POINTS_PATH,
} from './points';
import { YandexDetect, YandexError } from './schema';
import { makeQuoteRequest } from '../quote-request';

/** The route step's shipment: within Moscow, the only town Yandex's test environment serves. */
export const YANDEX_CHECK_ROUTE: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Москва', postalCode: '101000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});

/** A pickup point the test environment's documentation names (Москва, Ленинградский проспект 37 к9; YA-TEST). */
export const YANDEX_DOCUMENTED_POINT = '01946f4f013c7337874ec2fb848a58a4';
/** Yandex's region id of Москва (the geo_id every client uses for Moscow). */
export const YANDEX_MOSCOW_GEO_ID = 213;
const MOSCOW = { city: 'Москва', region: 'Москва', postalCode: '101000', lat: 55.754, lon: 37.6204 } as const;

const MOSCOW_ONLY = {
  ru: 'Тестовая среда Яндекса (b2b.taxi.tst.yandex.net) знает только московские адреса.',
  en: 'Yandex’s test environment (b2b.taxi.tst.yandex.net) knows Moscow addresses only.',
};

const HINTS = {
  auth: {
    ru: 'Неверный токен или не тот сервер: опубликованный тестовый токен (docs/carriers.md, Yandex) работает только на b2b.taxi.tst.yandex.net, токен кабинета — только на b2b-authproxy.taxi.yandex.net. Токен не истекает, но смена пароля кабинета его отзывает.',
    en: 'Wrong token or the wrong host: the published test token (docs/carriers.md, Yandex) works only on b2b.taxi.tst.yandex.net, a cabinet token only on b2b-authproxy.taxi.yandex.net. A token never expires, but changing the cabinet password revokes it.',
  },
  directory: {
    ru: `location/detect не узнал Москву: проверьте адрес API (пути начинаются с /api/b2b/platform). ${MOSCOW_ONLY.ru}`,
    en: `location/detect did not recognise Moscow: check the API host (paths start with /api/b2b/platform). ${MOSCOW_ONLY.en}`,
  },
  size: {
    ru: 'Список ПВЗ запрашивается для geo_id и окна широта/долгота вокруг центра города; ответ должен быть намного меньше предела HTTP-клиента (1 МиБ). Ответ у предела — Яндекс не учитывает окно вместе с geo_id: установите YANDEX_WINDOW_WITH_GEO_ID = false (core/carriers/yandex/points.ts). Без ответа курьерский тариф всё равно считается.',
    en: 'The pickup list is asked for the geo_id and a latitude/longitude window around the town’s centre; the answer must stay far under the HTTP client’s cap (1 MiB). An answer near the cap means Yandex ignores the window next to geo_id: set YANDEX_WINDOW_WITH_GEO_ID = false (core/carriers/yandex/points.ts). Without it the door rate is still quoted.',
  },
  route: {
    ru: `Москва → Москва, 1,2 кг, через сам адаптер. ${MOSCOW_ONLY.ru} На тестовом сервере нужен склад отправки carriers.yandex.platform_station_id (тестовый fbed3aa1-…). «no door rate: … town-level address» — Яндекс не принимает адрес без улицы (YANDEX_DOOR_BY_TOWN_ADDRESS); «No dropoff available» — у склада нет графика отгрузок или баланса в кабинете.`,
    en: `Moscow → Moscow, 1.2 kg, through the adapter itself. ${MOSCOW_ONLY.en} On the test host set the shipping station carriers.yandex.platform_station_id (the test one, fbed3aa1-…). “no door rate: … town-level address” means Yandex refuses an address without a street (YANDEX_DOOR_BY_TOWN_ADDRESS); “No dropoff available” means the station has no shipping schedule or balance in the cabinet.`,
  },
} as const;

/** What an error answer says: `HTTP 401: unauthorized: Access denied`. */
function refusal(status: number, json: unknown, text: string): string {
  const parsed = YandexError.safeParse(json);
  const said = parsed.success ? [parsed.data.code, parsed.data.message].filter(Boolean).join(': ') : '';
  return `HTTP ${status}: ${said || text.slice(0, 200)}`;
}

async function post(api: YandexApi, path: string, body: unknown, signal: AbortSignal) {
  try {
    return await api.post(path, body, signal);
  } catch (err) {
    if (err instanceof CarrierHttpError) throw new Error(`Yandex ${path}: ${err.message}`, { cause: err });
    throw err;
  }
}

export function yandexCheckSteps(options: YandexAdapterOptions): CarrierCheckStep[] {
  const token = options.token?.trim() ?? '';
  const api = yandexApi(options.baseUrl, token);
  let geoId: number | null = null;

  const configured = (): void => {
    if (token === '') throw new Error('Yandex Delivery token is not set (setting carriers.yandex.token)');
  };

  async function detectMoscow(signal: AbortSignal): Promise<{ geoId: number; variants: number }> {
    configured();
    const { status, json, text } = await post(
      api,
      '/api/b2b/platform/location/detect',
      { location: yandexAddress(MOSCOW) },
      signal,
    );
    if (status < 200 || status >= 300)
      throw new Error(`Yandex location/detect ${refusal(status, json, text)}`);
    const parsed = YandexDetect.safeParse(json);
    if (!parsed.success)
      throw new Error(`Yandex location/detect answered an unexpected body: ${text.slice(0, 200)}`);
    const first = parsed.data.variants[0];
    if (!first) throw new Error(`Yandex location/detect found no variant for "${yandexAddress(MOSCOW)}"`);
    geoId = first.geo_id;
    return { geoId, variants: parsed.data.variants.length };
  }

  const auth: CarrierCheckStep = {
    kind: 'auth',
    subject: `POST ${YANDEX_POINTS_PATH} {"pickup_point_ids":["${YANDEX_DOCUMENTED_POINT}"]}`,
    hint: HINTS.auth,
    async run(signal) {
      configured();
      const body = { pickup_point_ids: [YANDEX_DOCUMENTED_POINT] };
      const { status, json, text } = await post(api, YANDEX_POINTS_PATH, body, signal);
      if (status === 401 || status === 403)
        throw new Error(`Yandex rejected the token (${refusal(status, json, text)})`);
      if (status < 200 || status >= 300)
        throw new Error(`Yandex pickup-points/list ${refusal(status, json, text)}`);
      const points = (json as { points?: unknown[] } | undefined)?.points;
      return {
        items: Array.isArray(points) ? points.length : 0,
        note: said('токен принят', 'the token was accepted'),
      };
    },
  };

  const directory: CarrierCheckStep = {
    kind: 'directory',
    subject: `POST /api/b2b/platform/location/detect {"location":"${yandexAddress(MOSCOW)}"}`,
    hint: HINTS.directory,
    async run(signal) {
      const found = await detectMoscow(signal);
      const known = found.geoId === YANDEX_MOSCOW_GEO_ID;
      return {
        items: found.variants,
        note: said(
          `Москва — geo_id ${found.geoId}${known ? '' : ` (у Яндекса — ${YANDEX_MOSCOW_GEO_ID})`}`,
          `Москва is geo_id ${found.geoId}${known ? '' : ` (Yandex's own is ${YANDEX_MOSCOW_GEO_ID})`}`,
        ),
      };
    },
  };

  const halfKm = YANDEX_POINT_WINDOWS_KM[0]!;
  const size: CarrierCheckStep = {
    kind: 'size',
    subject: `POST ${YANDEX_POINTS_PATH}: Москва, geo_id and ±${halfKm} km around the centre`,
    hint: HINTS.size,
    async run(signal): Promise<CheckMeasure> {
      const id = geoId ?? (await detectMoscow(signal)).geoId;
      const body = pointListBody('pickup', id, pointWindow(MOSCOW.lat, MOSCOW.lon, halfKm));
      const answer = await listPoints(api, body, signal);
      if ('error' in answer) throw new Error(answer.error);
      if (answer.bytes > MAX_CARRIER_RESPONSE_BYTES / 2) {
        throw new Error(
          `Yandex answered ${answer.bytes} bytes for ${answer.points.length} points, over half the cap`,
        );
      }
      return {
        bytes: answer.bytes,
        limitBytes: MAX_CARRIER_RESPONSE_BYTES,
        items: answer.points.length,
        note: said(
          `ПВЗ в пределах ±${halfKm} км от центра`,
          `pickup points within ±${halfKm} km of the centre`,
        ),
      };
    },
  };

  const route: CarrierCheckStep = {
    kind: 'route',
    subject: 'Москва 101000 → Москва 101000, 1.2 kg 30×20×10',
    hint: HINTS.route,
    async run(signal) {
      configured();
      const out = await createYandexAdapter(options).quote(YANDEX_CHECK_ROUTE, { signal });
      return routeMeasure(out);
    },
  };

  return [auth, directory, size, route];
}
