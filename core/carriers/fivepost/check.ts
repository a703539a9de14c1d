// The live check of 5Post (issue #15 item 6; the interface is core/carriers/check.ts): the same JWT, catalogue
// query and adapter the quotes use, against the host and API key in settings (preprod, api-preprod-omni.x5.ru,
// where the contract gives a key for it). Steps: the JWT; one small catalogue page (how 5Post writes a town,
// and whether RateDesk places it); page 0 at the page size downloads use, against the HTTP client's cap (the
// audit's F4); a quote Москва → Казань through the adapter.
import { said, type CarrierCheckStep, routeMeasure } from '../check';
import { CarrierHttpError, MAX_CARRIER_RESPONSE_BYTES, carrierRequest } from '../http';
import { createFivePostAdapter, type FivePostAdapterOptions } from './adapter';
import { CATALOGUE_PAGE_SIZE } from './catalogue';
import { pointsPageBody, pointsPageUrl } from './request';
import { FivePostPoint, FivePostPointPage, fivePostErrorText } from './schema';
import { FivePostTokenSource, jwtLifetimeMs } from './token';
import { townOfPoint } from './town';
import { makeQuoteRequest } from '../quote-request';

/** Points in the directory step's page: enough to see how towns are written, a few KB. */
const DIRECTORY_PAGE_SIZE = 10;

export function fivePostCheckSteps(options: FivePostAdapterOptions): CarrierCheckStep[] {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const apiKey = options.apiKey?.trim() ?? '';
  const nowMs = options.nowMs ?? Date.now;
  const tokens = new FivePostTokenSource(baseUrl, apiKey, nowMs);

  async function jwt(signal: AbortSignal): Promise<string> {
    if (apiKey === '') throw new Error('no 5Post API key is set (carriers.5post.apikey)');
    const token = await tokens.get(signal);
    if (!token.ok) throw new Error(token.detail);
    return token.jwt;
  }

  /** Page 0 of the catalogue at `pageSize`: its text and what it says. */
  async function pageZero(pageSize: number, signal: AbortSignal) {
    const bearer = await jwt(signal);
    let res;
    try {
      res = await carrierRequest(pointsPageUrl(baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(pointsPageBody(0, pageSize)),
        signal,
      });
    } catch (err) {
      if (err instanceof CarrierHttpError)
        throw new Error(`5Post catalogue page 0: ${err.message}`, { cause: err });
      throw err;
    }
    if (res.status !== 200) {
      const said = fivePostErrorText(res.json);
      throw new Error(`5Post catalogue page 0: HTTP ${res.status}${said ? ` ${said}` : ''}`);
    }
    const page = FivePostPointPage.safeParse(res.json);
    if (!page.success)
      throw new Error(`5Post catalogue page 0 has an unexpected shape: ${res.text.slice(0, 200)}`);
    return { text: res.text, page: page.data };
  }

  return [
    {
      kind: 'auth',
      subject: 'POST /jwt-generate-claims/rs256/1?apikey=…',
      hint: {
        ru:
          'Ключ API 5Post выдаёт менеджер по договору; ключи preprod (api-preprod-omni.x5.ru) и боевого хоста ' +
          'различаются. «Invalid ApiKey» — не тот ключ или не тот хост; сетевая ошибка — хост недоступен ' +
          '(API 5Post может не отвечать адресам вне России).',
        en:
          '5Post API keys come from a 5Post manager with the contract; preprod (api-preprod-omni.x5.ru) and ' +
          'production keys differ. "Invalid ApiKey": wrong key or host; a network error: the host is out of ' +
          'reach (5Post may not answer addresses outside Russia).',
      },
      async run(signal) {
        const token = await jwt(signal);
        const lifetime = jwtLifetimeMs(token, nowMs());
        return {
          note:
            lifetime === null
              ? said('JWT выдан', 'JWT issued')
              : said(
                  `JWT действует ${Math.round(lifetime / 60_000)} мин`,
                  `JWT valid ${Math.round(lifetime / 60_000)} min`,
                ),
        };
      },
    },
    {
      kind: 'directory',
      subject: `POST /api/v1/pickuppoints/query {"pageSize":${DIRECTORY_PAGE_SIZE},"pageNumber":0}`,
      hint: {
        ru:
          'Каталог точек — единственный источник цен 5Post. HTTP 429 — исчерпан лимит выгрузок 5Post ' +
          '(3 000 точек/с, 50 000/ч, 150 000/сутки): подождите час. В заметке — как 5Post пишет город ' +
          '(«Зеленодольск г») и нашёл ли RateDesk его по localityFiasCode (аудит F5).',
        en:
          'The pickup-point catalogue is 5Post’s only source of prices. HTTP 429: 5Post’s download limit ' +
          '(3,000 points/s, 50,000/h, 150,000/day): wait an hour. The note shows how 5Post writes a town ' +
          '("Зеленодольск г") and whether RateDesk placed it by localityFiasCode (audit F5).',
      },
      async run(signal) {
        const { page } = await pageZero(DIRECTORY_PAGE_SIZE, signal);
        if (page.content.length === 0) throw new Error('5Post catalogue page 0 is empty');
        const first = FivePostPoint.safeParse(page.content[0]);
        let seen = said('первую точку прочитать не удалось', 'the first point could not be read');
        if (first.success) {
          const p = first.data;
          const town = townOfPoint(p.localityFiasCode, p.address.city, p.address.cityType, p.address.region);
          const byFias = town.key.startsWith('fias:');
          seen = said(
            `первая точка в «${p.address.city}»: ${byFias ? 'город найден по коду ФИАС' : `город найден только по названию («${town.key}»)`}`,
            `first point in «${p.address.city}»: ${byFias ? 'placed by its FIAS code' : `placed by name only («${town.key}»)`}`,
          );
        }
        return {
          items: page.content.length,
          note: said(
            `${page.totalElements ?? '?'} точек в каталоге; ${seen.ru}`,
            `${page.totalElements ?? '?'} points in the catalogue; ${seen.en}`,
          ),
        };
      },
    },
    {
      kind: 'size',
      subject: `POST /api/v1/pickuppoints/query {"pageSize":${CATALOGUE_PAGE_SIZE},"pageNumber":0}`,
      hint: {
        ru:
          'Страница каталога должна укладываться в предел ответа (1 МиБ) с запасом. Если нет — точки 5Post ' +
          'крупнее записанных (2,2 КБ): уменьшите CATALOGUE_PAGE_SIZE в core/carriers/fivepost/catalogue.ts ' +
          '(аудит F4).',
        en:
          'A catalogue page must fit the 1 MiB answer cap with room to spare. If not, 5Post’s points are larger ' +
          'than the captured 2.2 KB: lower CATALOGUE_PAGE_SIZE in core/carriers/fivepost/catalogue.ts (audit F4).',
      },
      async run(signal) {
        const { text, page } = await pageZero(CATALOGUE_PAGE_SIZE, signal);
        const bytes = Buffer.byteLength(text);
        const items = page.content.length;
        return {
          bytes,
          limitBytes: MAX_CARRIER_RESPONSE_BYTES,
          items,
          note: said(
            `${items > 0 ? Math.round(bytes / items) : 0} байт на точку; ` +
              `${page.totalElements ?? '?'} точек на ${page.totalPages} страницах`,
            `${items > 0 ? Math.round(bytes / items) : 0} bytes a point; ` +
              `${page.totalElements ?? '?'} points in ${page.totalPages} pages`,
          ),
        };
      },
    },
    {
      kind: 'route',
      subject: 'Москва → Казань',
      // The first check downloads the catalogue: ~125 pages paced under 3,000 points a second.
      timeoutMs: 5 * 60_000,
      hint: {
        ru:
          'Первая проверка скачивает весь каталог (около 125 страниц, не меньше 13 с; считается в суточный ' +
          'лимит 5Post). «Нет доставки»: в каталоге preprod может не быть точек в Казани или тарифы там ' +
          'нулевые — проверьте боевой хост. Цена — оценка по каталогу: счёт 5Post бывает выше (гайд §4.3).',
        en:
          'The first check downloads the whole catalogue (about 125 pages, 13 s or more; it counts against ' +
          '5Post’s daily limit). "No service": the preprod catalogue may have no point in Казань, or zero ' +
          'rates there — try production. The price is the catalogue’s estimate; 5Post’s invoice can be higher.',
      },
      async run(signal) {
        const out = await createFivePostAdapter(options).quote(
          makeQuoteRequest({
            from: { city: 'Москва', postalCode: '101000' },
            to: { city: 'Казань', postalCode: '420000' },
            parcel: { weight_grams: 1000, length_cm: 20, width_cm: 15, height_cm: 10 },
            declaredValueKopecks: 0,
          }),
          { signal },
        );
        return routeMeasure(out);
      },
    },
  ];
}
