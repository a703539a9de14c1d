// The live check of ПЭК (issue #15 item 6): the calls a quote makes, against the endpoint and credentials in
// settings, one at a time: the cheapest authenticated call, the zone lookup of a big city, one quote. PEK allows
// 100 requests a minute per account (verified-2026 §5.5): the check makes at most six (one product list, one
// zone lookup, then a quote: two zone lookups when not cached and two calculator calls), through the same
// per-account limiter as the quotes. PEK has a test cabinet (https://test-kabinet.pecom.ru/preweb/api/v1).
import { z } from 'zod';
import { findCity } from '../../locations/cities';
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure } from '../check';
import { createPekAdapter, type PekAdapterOptions } from './adapter';
import { basicAuthorization, createPekApi, type PekApi } from './api';
import { pekAddress } from './locations';
import { DEFAULT_PEK_TYPES } from './products';
import { pekLimiterFor } from './rate-limit';
import { PekErrorBody, PekZone } from './schema';
import { makeQuoteRequest } from '../quote-request';

const FROM = 'Москва';
const TO = 'Казань';
const PARCEL = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

/** GET /typesOfDelivery/all/: `[{type, name, …}]` (glook TypesOfDeliveryItem). */
const TypesOfDelivery = z.array(
  z.looseObject({ type: z.int(), name: z.string().optional().catch(undefined) }),
);

/** What PEK answered, for a step's error: the status and its error envelope's words, else the body's start. */
function answered(status: number, json: unknown, text: string): string {
  const error = PekErrorBody.safeParse(json);
  const words = error.success
    ? [error.data.error.title, error.data.error.message].filter(Boolean).join(': ')
    : text.replace(/\s+/g, ' ').trim().slice(0, 300);
  return `PEK answered HTTP ${status}${words ? `: ${words}` : ''}`;
}

export function pekCheckSteps(options: PekAdapterOptions): CarrierCheckStep[] {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const login = options.login?.trim() ?? '';
  const apiKey = options.apiKey?.trim() ?? '';
  const types = options.types?.length ? [...options.types] : [...DEFAULT_PEK_TYPES];
  let api: PekApi | undefined;

  function connect(): PekApi {
    if (login === '' || apiKey === '')
      throw new Error(`PEK ${login === '' ? 'login' : 'API key'} is not set (carriers.pek)`);
    api ??= createPekApi(
      baseUrl,
      basicAuthorization(login, apiKey),
      options.limiter ?? pekLimiterFor(new URL(baseUrl).origin, login),
    );
    return api;
  }

  return [
    {
      kind: 'auth',
      subject: 'GET /typesOfDelivery/all/',
      hint: {
        ru:
          'Самый дешёвый вызов с Basic-авторизацией. HTTP 401/403 — неверная пара логин кабинета / ключ API ' +
          '(«Регистрационные данные → Ключи API») или не тот хост: тестовый кабинет ' +
          'https://test-kabinet.pecom.ru/preweb/api/v1, рабочий https://kabinet.pecom.ru/api/v1. Сетевая ' +
          'ошибка — адрес или доступ из-за пределов России. Продукт не в списке — проверьте carriers.pek.types.',
        en:
          'The cheapest Basic-auth call. HTTP 401/403: the cabinet login / API key pair is wrong, or the host ' +
          'is (test cabinet https://test-kabinet.pecom.ru/preweb/api/v1, production ' +
          'https://kabinet.pecom.ru/api/v1). A network error: the host, or an IP outside Russia. A product ' +
          'missing from the list: check carriers.pek.types.',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const res = await connect().get('/typesOfDelivery/all/', signal);
        if (res.status !== 200 || PekErrorBody.safeParse(res.json).success)
          throw new Error(answered(res.status, res.json, res.text));
        const list = TypesOfDelivery.safeParse(res.json);
        if (!list.success) throw new Error(`PEK answered an unexpected body: ${res.text.slice(0, 300)}`);
        const offered = new Set(list.data.map((t) => t.type));
        const missing = types.filter((t) => !offered.has(t));
        if (missing.length > 0)
          throw new Error(
            `PEK does not list the products ${missing.join(', ')} (offers ${[...offered].join(', ')})`,
          );
        return { items: list.data.length, note: said(`types ${[...offered].join(', ')}`) };
      },
    },
    {
      kind: 'directory',
      subject: `POST /branches/findzonebyaddress/ (${FROM})`,
      hint: {
        ru:
          'Зона адреса по строке «страна, регион, населённый пункт» (аудит P5: индекс после страны, улицы нет). ' +
          'Пустой ответ или ошибка валидации по address — ПЭК не понял строку: попробуйте её вручную, с улицей; ' +
          'порядок и индекс задают PEK_ADDRESS_COUNTRY и PEK_POSTAL_CODE_IN_ADDRESS (core/carriers/pek/locations.ts).',
        en:
          'The zone of a «country, region, town» address (audit P5: the postal code after the country, no ' +
          'street). An empty answer or a validation error on address means PEK did not read the string: try ' +
          'it by hand, with a street; PEK_ADDRESS_COUNTRY and PEK_POSTAL_CODE_IN_ADDRESS (pek/locations.ts) set it.',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const moscow = findCity(FROM);
        const address = pekAddress({
          city: FROM,
          region: moscow?.region ?? null,
          postalCode: moscow?.postalCode ?? null,
        });
        const res = await connect().post('/branches/findzonebyaddress/', { address }, signal);
        if (res.status !== 200 || PekErrorBody.safeParse(res.json).success)
          throw new Error(answered(res.status, res.json, res.text));
        const zone = PekZone.safeParse(res.json);
        if (!zone.success)
          throw new Error(`PEK placed no zone for «${address}»: ${res.text.slice(0, 300) || 'empty'}`);
        const { branchTitle, mainWarehouseId } = zone.data;
        return {
          items: 1,
          note: said(
            `${branchTitle ?? 'филиал'}: склад ${mainWarehouseId}`,
            `${branchTitle ?? 'branch'}: warehouse ${mainWarehouseId}`,
          ),
        };
      },
    },
    {
      kind: 'route',
      subject: `${FROM} → ${TO}`,
      hint: {
        ru:
          'Два расчёта calculateprice (до терминала и до двери). «PEK error …» внутри HTTP 200 — прочтите ' +
          'заголовок ошибки (чаще всего переименованное поле, сравните с verified-2026 §5.2); «no service» — ' +
          'корневой hasError о направлении (аудит P9). Нет тарифа до двери — ПЭК не принял адрес без улицы ' +
          '(PEK_STREETLESS_DOOR): строка «PEK answered one leg without a rate» в журнале.',
        en:
          'Two calculateprice calls (to the terminal and to the door). "PEK error …" inside HTTP 200: read its ' +
          'title (usually a renamed field, compare with verified-2026 §5.2); "no service": a root hasError about ' +
          'the route (audit P9). No door rate: PEK refused the street-less address (PEK_STREETLESS_DOOR); the ' +
          'log says "PEK answered one leg without a rate".',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const out = await createPekAdapter(options).quote(
          makeQuoteRequest({
            from: { city: FROM, postalCode: null },
            to: { city: TO, postalCode: null },
            parcel: PARCEL,
            declaredValueKopecks: 0,
          }),
          { signal },
        );
        return routeMeasure(out);
      },
    },
  ];
}
