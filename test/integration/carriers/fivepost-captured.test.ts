// The 5Post adapter against catalogue pages shaped and sized like 5Post's own (test/fixtures/carriers/fivepost:
// the lapaygroup README capture), served by a small server that pages them as pickuppoints/query does.
// Audit F4 (page size against the 1 MiB cap), F5 (towns), F6 (the hub's rate), F8 (inactive points).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFivePostAdapter, memoryCatalogueStore } from '../../../core/carriers/fivepost';
import { CATALOGUE_PAGE_SIZE } from '../../../core/carriers/fivepost/catalogue';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import {
  capturedCatalogue,
  capturedShapePoint,
  ZELENODOLSK,
  type CapturedTown,
  type RawPoint,
} from '../../fixtures/carriers/fivepost/captured-catalogue';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

type Pages = (pageNumber: number, pageSize: number) => Record<string, unknown>;

/** JWT and catalogue pages as 5Post serves them: at most 2,000 points a page (lapaygroup README). */
async function fivepost(pages: Pages): Promise<{ url: string; pageSizes: number[] }> {
  const pageSizes: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.url?.startsWith('/jwt-generate-claims/')) return answer(200, { jwt: 'aaa.bbb.ccc' });
      const { pageSize, pageNumber } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        pageSize: number;
        pageNumber: number;
      };
      pageSizes.push(pageSize);
      if (pageSize > 2000) return answer(400, { error: 'Bad Request', status: 400 });
      answer(200, pages(pageNumber, pageSize));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pageSizes };
}

/** A catalogue of exactly these points, paged. */
function pagesOf(points: RawPoint[]): Pages {
  return (pageNumber, pageSize) => {
    const content = points.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);
    return { content, totalPages: Math.ceil(points.length / pageSize), totalElements: points.length };
  };
}

function adapter(url: string) {
  return createFivePostAdapter({ baseUrl: url, apiKey: 'key', store: memoryCatalogueStore() });
}

function request(to: CarrierQuoteRequest['to'], from?: CarrierQuoteRequest['from']): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: from ?? { city: 'Москва', postalCode: '101000' },
    to,
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
  });
}

const ctx = () => ({ signal: AbortSignal.timeout(20_000) });

function prices(out: CarrierOutcome): number[] {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates.map((r) => r.price_kopecks);
}

const KAZAN: CapturedTown = {
  city: 'Казань г',
  cityType: 'г',
  region: 'Татарстан республика',
  zipCode: '420061',
  fias: '93b3df57-4c89-44df-ac42-96f05e9cd3b9',
};

describe('F4: the catalogue at 5Post’s record size', () => {
  it('loads 2,400 points of the captured size in pages that fit the 1 MiB cap, and quotes from them', async () => {
    const catalogue = capturedCatalogue(2_400, [ZELENODOLSK, KAZAN]);
    const page0 = Buffer.byteLength(JSON.stringify(catalogue.page(0, CATALOGUE_PAGE_SIZE)));
    // Real points (2.2 KB), and room for points more than twice that size.
    expect(page0 / CATALOGUE_PAGE_SIZE).toBeGreaterThan(2_100);
    expect(page0).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 2);
    const f = await fivepost(catalogue.page);
    const a = adapter(f.url);
    expect(prices(await a.quote(request({ city: 'Зеленодольск', postalCode: null }), ctx()))).toEqual([
      23_900,
    ]);
    expect(f.pageSizes).toEqual(Array<number>(12).fill(CATALOGUE_PAGE_SIZE));
    expect(prices(await a.quote(request({ city: 'Казань', postalCode: '420000' }), ctx()))).toEqual([23_900]);
    expect(f.pageSizes).toHaveLength(12); // the second quote read the stored catalogue
  });
});

describe('F5: towns as 5Post writes them', () => {
  const unknownFias = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
  const towns: Array<[string, CapturedTown, CarrierQuoteRequest['to']]> = [
    // The capture itself: «Зеленодольск г», zip 422544 where the town's main index is 422521; by FIAS.
    ['the captured point, by localityFiasCode', ZELENODOLSK, { city: 'Зеленодольск', postalCode: '422521' }],
    [
      '«г. Казань» with a FIAS code of another level, by name',
      { ...KAZAN, city: 'г. Казань', cityType: null, fias: unknownFias(1) },
      { city: 'Казань', postalCode: '420000' },
    ],
    ['«Казань г» by name', { ...KAZAN, fias: unknownFias(2) }, { city: 'г. Казань', postalCode: null }],
    [
      '«пгт Шерегеш», a place the city table does not know',
      {
        city: 'пгт Шерегеш',
        cityType: 'пгт',
        region: 'Кемеровская область - Кузбасс область',
        zipCode: '652971',
        fias: unknownFias(3),
      },
      { city: 'Шерегеш', postalCode: null },
    ],
    [
      '«с Дивноморское»',
      { city: 'с Дивноморское', region: 'Краснодарский край', zipCode: '353490', fias: unknownFias(4) },
      { city: 'Дивноморское', postalCode: null },
    ],
    [
      '«Солнечный п», the type after the name',
      {
        city: 'Солнечный п',
        cityType: 'п',
        region: 'Саратовская область',
        zipCode: '410000',
        fias: unknownFias(5),
      },
      { city: 'Солнечный', postalCode: null },
    ],
  ];

  it.each(towns)('%s', async (_name, town, to) => {
    const f = await fivepost(pagesOf([capturedShapePoint(1, { town })]));
    expect(prices(await adapter(f.url).quote(request(to), ctx()))).toEqual([23_900]);
  });

  it('tells namesakes apart by FIAS: a point of Киров (Калужская обл) is not one of Киров (Кировская обл)', async () => {
    const kaluga: CapturedTown = {
      city: 'Киров г',
      cityType: 'г',
      region: 'Калужская обл',
      zipCode: '249444',
      fias: '7c875ac0-5c75-4798-8786-564ccb5bd9f2',
    };
    const f = await fivepost(pagesOf([capturedShapePoint(1, { town: kaluga })]));
    const a = adapter(f.url);
    expect(await a.quote(request({ city: 'Киров', postalCode: null }), ctx())).toEqual({
      ok: false,
      kind: 'no_service',
      detail: '5Post has no pickup point in Киров',
    });
    expect(prices(await a.quote(request({ city: 'Киров, Калужская обл', postalCode: null }), ctx()))).toEqual(
      [23_900],
    );
  });
});

describe('F6: the rate of the sender’s hub, said to be an estimate', () => {
  it('a point priced from two hubs costs a Moscow sender the Moscow rate and a Petersburg one the SPb rate', async () => {
    const twoHubs: Array<[string, string, number]> = [
      ['HUB_SPB', '20', 199.99],
      ['HUB_MOSCOW', '10', 250],
    ];
    const f = await fivepost(pagesOf([capturedShapePoint(1, { town: KAZAN, rates: twoHubs })]));
    const a = adapter(f.url);
    const to = { city: 'Казань', postalCode: null };
    const moscow = await a.quote(request(to), ctx());
    expect(prices(moscow)).toEqual([25_000]); // not the cheapest, 199.99
    expect(prices(await a.quote(request(to, { city: 'Санкт-Петербург', postalCode: null }), ctx()))).toEqual([
      19_999,
    ]);
    expect(moscow.ok && moscow.rates[0]!.service_name).toBe('Постамат (оценка по каталогу)');
  });
});

describe('F8: inactive points', () => {
  it('are never offered, however cheap', async () => {
    const f = await fivepost(
      pagesOf([
        capturedShapePoint(1, { town: ZELENODOLSK }),
        capturedShapePoint(2, { town: ZELENODOLSK, extStatus: 'INACTIVE', price: 99 }),
        capturedShapePoint(3, { town: ZELENODOLSK, type: 'ISSUE_POINT', extStatus: 'FROZEN', price: 120 }),
      ]),
    );
    const out = await adapter(f.url).quote(request({ city: 'Зеленодольск', postalCode: null }), ctx());
    expect(prices(out)).toEqual([23_900]);
  });
});
