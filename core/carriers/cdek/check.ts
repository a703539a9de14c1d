// CDEK's live check (issue #15 item 6; docs/carriers.md, CDEK, "Live check"): the same token source, API
// client and adapter the quotes use, against the endpoint and account in settings. `auth` gets an OAuth token;
// `directory` asks GET /location/cities for Москва exactly as the adapter's directory asks a place; `size`
// weighs that answer against the HTTP client's cap; `route` quotes Москва → Казань through the adapter. The
// steps share one token, as the quotes of one adapter do.
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure, failureText } from '../check';
import { CarrierHttpError, MAX_CARRIER_RESPONSE_BYTES } from '../http';
import type { CarrierQuoteRequest } from '../types';
import { createCdekAdapter, type CdekAdapterOptions } from './adapter';
import { createCdekApi } from './api';
import { cityLookupPath, CITY_LOOKUP_SIZE } from './locations';
import { CdekCityList } from './schema';
import { CdekTokenSource } from './token';
import { makeQuoteRequest } from '../quote-request';

/** The route step's shipment: the one docs/carriers.md's smoke test asks for. */
export const CDEK_CHECK_ROUTE: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});

/** CDEK's own code for Москва (documented; the simulator uses it too). */
export const CDEK_MOSCOW_CODE = 44;

const EDU_DOWN = {
  ru: 'Тестовый сервер api.edu.cdek.ru временами не работает (5xx; cdek-it/wordpress#82): повторите позже.',
  en: 'CDEK’s test host api.edu.cdek.ru is down at times (5xx; cdek-it/wordpress#82): try again later.',
};

const HINTS = {
  auth: {
    ru: `Неверная пара client id / secret или не тот сервер: опубликованная тестовая пара СДЭК (docs/carriers.md, «Live smoke test») работает только на api.edu.cdek.ru, боевая — только на api.cdek.ru. ${EDU_DOWN.ru}`,
    en: `Wrong client id / secret or the wrong host: CDEK’s published test account (docs/carriers.md, “Live smoke test”) works only on api.edu.cdek.ru, a real one only on api.cdek.ru. ${EDU_DOWN.en}`,
  },
  directory: {
    ru: `GET /location/cities без Москвы (код 44 в боевом справочнике) — не тот адрес API (нужен …/v2) или справочник изменился. ${EDU_DOWN.ru}`,
    en: `GET /location/cities without Moscow (code 44 in production) means the wrong API base (…/v2 expected) or a changed directory. ${EDU_DOWN.en}`,
  },
  size: {
    ru: 'Ответ справочника должен быть намного меньше предела HTTP-клиента (1 МиБ): адаптер просит не больше 10 городов. Если ответ близок к пределу, СДЭК перестал соблюдать size.',
    en: 'The directory’s answer must stay far under the HTTP client’s cap (1 MiB): the adapter asks for at most 10 cities. An answer near the cap means CDEK no longer honours size.',
  },
  route: {
    ru: `Москва 101000 → Казань 420000, 1,2 кг, через сам адаптер. «no service» — изменилась форма запроса (protocols.md §2.4) или тип договора (carriers.cdek.contract_type); незнакомые коды — в журнале: «CDEK answered an error code RateDesk does not know». Цены тестового сервера не настоящие. ${EDU_DOWN.ru}`,
    en: `Moscow 101000 → Kazan 420000, 1.2 kg, through the adapter itself. “no service” means the request shape (protocols.md §2.4) or the contract type (carriers.cdek.contract_type) changed; unknown codes are in the log: “CDEK answered an error code RateDesk does not know”. The test host’s prices are not real. ${EDU_DOWN.en}`,
  },
} as const;

export function cdekCheckSteps(options: CdekAdapterOptions): CarrierCheckStep[] {
  const clientId = options.clientId?.trim() ?? '';
  const clientSecret = options.clientSecret?.trim() ?? '';
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const tokens = new CdekTokenSource({ baseUrl, clientId, clientSecret, nowMs: options.nowMs ?? Date.now });
  const api = createCdekApi(baseUrl, tokens);
  let lookup: { text: string; cities: CdekCityList } | null = null;

  const configured = (): void => {
    if (clientId === '' || clientSecret === '') {
      throw new Error(
        `CDEK ${clientId === '' ? 'client id' : 'client secret'} is not set (settings carriers.cdek.*)`,
      );
    }
  };

  /** The adapter's own city lookup for Москва; kept for the size step. */
  async function lookUpMoscow(signal: AbortSignal): Promise<{ text: string; cities: CdekCityList }> {
    configured();
    let result;
    try {
      result = await api.get(cityLookupPath('Москва'), signal);
    } catch (err) {
      if (err instanceof CarrierHttpError)
        throw new Error(`CDEK city lookup: ${err.message}`, { cause: err });
      throw err;
    }
    if (!result.ok) throw new Error(failureText(result.failure));
    const { status, text, json } = result.response;
    if (status < 200 || status >= 300)
      throw new Error(`CDEK city lookup answered HTTP ${status}: ${text.slice(0, 200)}`);
    const parsed = CdekCityList.safeParse(json);
    if (!parsed.success)
      throw new Error(`CDEK city lookup answered an unexpected body: ${text.slice(0, 200)}`);
    lookup = { text, cities: parsed.data };
    return lookup;
  }

  const auth: CarrierCheckStep = {
    kind: 'auth',
    subject: 'POST /oauth/token grant_type=client_credentials',
    hint: HINTS.auth,
    async run(signal) {
      configured();
      const token = await tokens.get(signal);
      if (!token.ok) throw new Error(token.failure.detail);
      const lifetime = tokens.lastLifetimeSeconds();
      return {
        note:
          lifetime === null
            ? said('токен выдан', 'token issued')
            : said(`токен выдан на ${lifetime} с`, `token issued for ${lifetime} s`),
      };
    },
  };

  const directory: CarrierCheckStep = {
    kind: 'directory',
    subject: `GET /location/cities?city=Москва&country_codes=RU&size=${CITY_LOOKUP_SIZE}`,
    hint: HINTS.directory,
    async run(signal) {
      const { cities } = await lookUpMoscow(signal);
      const moscow = cities.find((c) => c.city?.trim().toLowerCase() === 'москва');
      if (!moscow) {
        throw new Error(
          `CDEK listed no Москва among ${cities.length} cities: ${cities.map((c) => c.city ?? c.code).join(', ')}`,
        );
      }
      const known = moscow.code === CDEK_MOSCOW_CODE;
      return {
        items: cities.length,
        note: said(
          `Москва — код ${moscow.code}${known ? '' : ` (на рабочем сервере — ${CDEK_MOSCOW_CODE})`}`,
          `Москва is code ${moscow.code}${known ? '' : ` (production's is ${CDEK_MOSCOW_CODE})`}`,
        ),
      };
    },
  };

  const size: CarrierCheckStep = {
    kind: 'size',
    subject: `GET /location/cities?city=Москва&country_codes=RU&size=${CITY_LOOKUP_SIZE}`,
    hint: HINTS.size,
    async run(signal): Promise<CheckMeasure> {
      const answer = lookup ?? (await lookUpMoscow(signal));
      const bytes = Buffer.byteLength(answer.text, 'utf8');
      if (bytes > MAX_CARRIER_RESPONSE_BYTES / 2) {
        throw new Error(`CDEK answered ${bytes} bytes for ${answer.cities.length} cities, over half the cap`);
      }
      return { bytes, limitBytes: MAX_CARRIER_RESPONSE_BYTES, items: answer.cities.length };
    },
  };

  const route: CarrierCheckStep = {
    kind: 'route',
    subject: 'Москва 101000 → Казань 420000',
    hint: HINTS.route,
    async run(signal) {
      const out = await createCdekAdapter(options).quote(CDEK_CHECK_ROUTE, { signal });
      return routeMeasure(out);
    },
  };

  return [auth, directory, size, route];
}
