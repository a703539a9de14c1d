// Boxberry's live check (issue #15 item 6; docs/carriers.md, Boxberry, "Live check"): the same directory and
// adapter the quotes use, against the endpoint and token in settings. `auth` is a cheap call that needs the
// token (ZipCheck for one Moscow index); `directory` finds Москва in the city list the adapter loads, with its
// `Reception` flag (audit B4); `size` weighs ListCitiesFull against the cap the city list is fetched with and
// counts its rows, and ListCities when the full list is over it (audit B5); `route` quotes Москва → Казань
// through the adapter.
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure } from '../check';
import { CarrierHttpError, carrierRequest, type CarrierHttpResponse } from '../http';
import type { CarrierQuoteRequest } from '../types';
import { CITY_LIST_MAX_BYTES, createBoxberryAdapter, type BoxberryAdapterOptions } from './adapter';
import { boxberryErrorText } from './errors';
import { boxberryCityDirectory } from './locations';
import { listCitiesFullUrl, listCitiesUrl, zipCheckUrl } from './request';
import { BoxberryCityList, BoxberryZipCheck } from './schema';
import { makeQuoteRequest } from '../quote-request';

/** The route step's shipment: the one docs/carriers.md's smoke test asks for. */
export const BOXBERRY_CHECK_ROUTE: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});

/** Boxberry's code for Москва (protocols.md §3.4, the gwinn listCities.json fixture). */
export const BOXBERRY_MOSCOW_CODE = '68';
const MOSCOW_INDEX = '101000';

const HINTS = {
  auth: {
    ru: 'Неверный токен или не тот сервер: токен из личного кабинета Boxberry работает на api.boxberry.ru (старые договоры — api.boxberry.de); тестовый сервер test-ecom.boxberry.ru, публичного тестового токена нет. Запомните точный текст ошибки Boxberry и добавьте его в errors.ts.',
    en: 'Wrong token or the wrong host: a Boxberry cabinet token works on api.boxberry.ru (older contracts: api.boxberry.de); the test host is test-ecom.boxberry.ru, with no public test token. Note Boxberry’s exact error text and add it to errors.ts.',
  },
  directory: {
    ru: 'Москвы (код 68) нет в списке городов или список не загрузился: смотрите шаг «size» и текст ошибки. Reception 0 у города отправителя означает, что Boxberry не принимает там посылки (BOXBERRY_SENDER_NEEDS_RECEPTION).',
    en: 'Moscow (code 68) is missing from the city list or the list did not load: see the “size” step and the error text. Reception 0 for a sender’s town means Boxberry takes no parcels there (BOXBERRY_SENDER_NEEDS_RECEPTION).',
  },
  size: {
    ru: 'ListCitiesFull — тысячи строк с кириллицей в виде \\uXXXX (около 730 байт строка), больше предела HTTP-клиента (1 МиБ). Тогда адаптер берёт ListCities (города с ПВЗ), а города только с курьерской доставкой не считаются, пока для этого запроса не подключён отдельный предел (CITY_LIST_MAX_BYTES, docs/carriers.md). Не помещается и ListCities — нужен этот предел.',
    en: 'ListCitiesFull is thousands of rows with Cyrillic written as \\uXXXX (about 730 bytes a row), over the HTTP client’s cap (1 MiB). The adapter then loads ListCities (towns with pickup points), and towns served by courier alone are not quoted until this call gets its own cap (CITY_LIST_MAX_BYTES, docs/carriers.md). If ListCities does not fit either, that cap is needed.',
  },
  route: {
    ru: 'Москва 101000 → Казань 420000, 1,2 кг, через сам адаптер; сравните TotalPrice с калькулятором кабинета (UseShopSettings 0 — без наценок кабинета). Незнакомые тексты ошибок — в журнале: «Boxberry answered an error RateDesk does not know».',
    en: 'Moscow 101000 → Kazan 420000, 1.2 kg, through the adapter itself; compare TotalPrice with the cabinet’s calculator (UseShopSettings 0: without the cabinet’s markups). Unknown error texts are in the log: “Boxberry answered an error RateDesk does not know”.',
  },
} as const;

export function boxberryCheckSteps(options: BoxberryAdapterOptions): CarrierCheckStep[] {
  const token = options.token?.trim() ?? '';
  const limitBytes = options.cityListMaxBytes ?? CITY_LIST_MAX_BYTES;
  const get = (url: string, signal: AbortSignal) =>
    carrierRequest(url, { method: 'GET', signal, maxBytes: limitBytes });

  const configured = (): void => {
    if (token === '') throw new Error('Boxberry token is not set (setting carriers.boxberry.token)');
  };

  /** A GET whose fault or error form is thrown as Boxberry's words. */
  async function fetchOk(what: string, url: string, signal: AbortSignal): Promise<CarrierHttpResponse> {
    let res;
    try {
      res = await get(url, signal);
    } catch (err) {
      if (err instanceof CarrierHttpError)
        throw new Error(`Boxberry ${what}: ${err.message}`, { cause: err });
      throw err;
    }
    if (res.status !== 200)
      throw new Error(`Boxberry ${what}: HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    const error = boxberryErrorText(res.json);
    if (error !== undefined) throw new Error(`Boxberry ${what}: ${error}`);
    return res;
  }

  const auth: CarrierCheckStep = {
    kind: 'auth',
    subject: `GET ?method=ZipCheck&Zip=${MOSCOW_INDEX}`,
    hint: HINTS.auth,
    async run(signal) {
      configured();
      const res = await fetchOk('ZipCheck', zipCheckUrl(options.baseUrl, token, MOSCOW_INDEX), signal);
      const parsed = BoxberryZipCheck.safeParse(res.json);
      if (!parsed.success)
        throw new Error(`Boxberry ZipCheck answered an unexpected body: ${res.text.slice(0, 200)}`);
      return {
        note: said(
          `токен принят; ${MOSCOW_INDEX} ExpressDelivery ${String(parsed.data[0]!.ExpressDelivery)}`,
          `the token was accepted; ${MOSCOW_INDEX} ExpressDelivery ${String(parsed.data[0]!.ExpressDelivery)}`,
        ),
      };
    },
  };

  const directory: CarrierCheckStep = {
    kind: 'directory',
    subject: 'Москва in the city list (ListCitiesFull, else ListCities)',
    hint: HINTS.directory,
    async run(signal) {
      configured();
      const cities = boxberryCityDirectory(options.baseUrl, token, options.nowMs, limitBytes);
      const answer = await cities.lookup(
        { city: 'Москва', region: 'Москва', postalCode: MOSCOW_INDEX },
        signal,
      );
      if ('error' in answer) throw new Error(answer.error);
      if (!answer.found) throw new Error('Boxberry’s city list has no Москва');
      const reception = await cities.reception(answer.value, signal);
      const known = answer.value === BOXBERRY_MOSCOW_CODE;
      const list = cities.coverage() === 'full' ? 'ListCitiesFull' : 'ListCities';
      return {
        note: said(
          `Москва — код ${answer.value}${known ? '' : ' (в документации Boxberry — 68)'}, Reception ${reception === null ? 'не указан' : reception ? 1 : 0}, из ${list}`,
          `Москва is code ${answer.value}${known ? '' : ` (Boxberry's documented one is 68)`}, Reception ${reception === null ? 'not given' : reception ? 1 : 0}, from ${list}`,
        ),
      };
    },
  };

  /** Bytes and rows of one list, or null when it is over the cap. */
  async function weigh(
    method: 'ListCitiesFull' | 'ListCities',
    signal: AbortSignal,
  ): Promise<{ bytes: number; rows: number } | null> {
    const url =
      method === 'ListCitiesFull'
        ? listCitiesFullUrl(options.baseUrl, token)
        : listCitiesUrl(options.baseUrl, token);
    try {
      const res = await fetchOk(method, url, signal);
      const rows = BoxberryCityList.safeParse(res.json);
      if (!rows.success)
        throw new Error(`Boxberry ${method} answered an unexpected body: ${res.text.slice(0, 200)}`);
      return { bytes: Buffer.byteLength(res.text), rows: rows.data.length };
    } catch (err) {
      if (err instanceof Error && err.cause instanceof CarrierHttpError && /too large/.test(err.message))
        return null;
      throw err;
    }
  }

  const size: CarrierCheckStep = {
    kind: 'size',
    subject: 'ListCitiesFull (and ListCities) against the cap of the city-list call',
    hint: HINTS.size,
    async run(signal): Promise<CheckMeasure> {
      configured();
      const full = await weigh('ListCitiesFull', signal);
      if (full) return { bytes: full.bytes, limitBytes, items: full.rows, note: said('ListCitiesFull') };
      const pickup = await weigh('ListCities', signal);
      if (!pickup) throw new Error('Boxberry ListCitiesFull and ListCities are both over the cap');
      return {
        bytes: pickup.bytes,
        limitBytes,
        items: pickup.rows,
        note: said(
          'ListCitiesFull больше предела: используется ListCities (города с ПВЗ), города только с курьерской доставкой не рассчитываются',
          'ListCitiesFull is over the cap: ListCities (towns with pickup points) is used, towns served by courier alone are not quoted',
        ),
      };
    },
  };

  const route: CarrierCheckStep = {
    kind: 'route',
    subject: 'Москва 101000 → Казань 420000',
    hint: HINTS.route,
    async run(signal) {
      configured();
      const out = await createBoxberryAdapter(options).quote(BOXBERRY_CHECK_ROUTE, { signal });
      return routeMeasure(out);
    },
  };

  return [auth, directory, size, route];
}
