// The 5Post adapter against its simulator (JWT, catalogue pages, SQLite cache, refresh policy), against
// hand-made servers answering like 5Post, and 5Post through POST /v1/rates with each sandbox trigger.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFivePostAdapter,
  memoryCatalogueStore,
  type FivePostAdapterOptions,
} from '../../../core/carriers/fivepost';
import {
  CATALOGUE_PAGE_SIZE,
  REFRESH_EVERY_MS,
  RETRY_AFTER_MS,
} from '../../../core/carriers/fivepost/catalogue';
import {
  startFivePostSimulator,
  type FivePostSimulatorHandle,
} from '../../../core/carriers/simulators/fivepost';
import { inBulkRefreshHours } from '../../../core/carriers/fivepost/download-limits';
import { fivePostPoints } from '../../../core/carriers/simulators/fivepost-points';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import { openStore, type SqliteStore } from '../../../core/store';
import { SHIPMENT, startTestService, type TestService, onlyCarriers } from '../../helpers/service';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const KEY = 'test-key';
const sims: FivePostSimulatorHandle[] = [];
const servers: Server[] = [];
const services: TestService[] = [];
const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  await Promise.all(services.splice(0).map((s) => s.close()));
  for (const c of cleanups.splice(0)) await c();
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

async function sim(ttl?: number): Promise<FivePostSimulatorHandle> {
  const s = await startFivePostSimulator({
    apiKey: KEY,
    ...(ttl !== undefined ? { tokenTtlSeconds: ttl } : {}),
  });
  sims.push(s);
  return s;
}

function adapter(url: string, over: Partial<FivePostAdapterOptions> = {}) {
  return createFivePostAdapter({ baseUrl: url, apiKey: KEY, store: memoryCatalogueStore(), ...over });
}

function tempStore(): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-5post-'));
  const store = openStore(join(dir, 'data.sqlite'));
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
    ...over,
  });
}

const ctx = (ms = 10_000) => ({ signal: AbortSignal.timeout(ms) });

/** A day later, moved past 5Post's bulk refresh hours (02:00–06:00 MSK), when no refresh starts. */
const dayLater = (ms: number): number => {
  const later = ms + REFRESH_EVERY_MS + 1;
  return inBulkRefreshHours(later) ? later + 4 * 3600_000 : later;
};

/** The simulator's active point of a type in a town, as 5Post writes the town («Казань г»). */
function simPoint(type: string, town: string) {
  return fivePostPoints().find(
    (p) =>
      p.type === type && p.extStatus === 'ACTIVE' && (p.address as { city: string }).city === `${town} г`,
  ) as {
    rate: Array<{ rateValueWithVat: number; rateExtraValueWithVat: number }>;
    deliverySL: Array<{ sl: number; minimalSl: number }>;
  };
}

function rates(out: CarrierOutcome) {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates;
}

describe('5Post adapter ↔ simulator', () => {
  it('quotes Казань from the catalogue: one rate per point type, VAT included, days from deliverySL', async () => {
    const s = await sim();
    const out = rates(await adapter(s.url).quote(request(), ctx()));
    expect(out.map((r) => r.service_code)).toEqual(['5post:ISSUE_POINT', '5post:POSTAMAT', '5post:TOBACCO']);
    for (const r of out) {
      expect(r).toMatchObject({ carrier: '5post', carrier_name: '5Post', delivery_type: 'pickup_point' });
      expect(Number.isInteger(r.price_kopecks)).toBe(true);
    }
    const postamat = out.find((r) => r.service_code === '5post:POSTAMAT')!;
    const raw = simPoint('POSTAMAT', 'Казань');
    expect(postamat.price_kopecks).toBe(Math.round(raw.rate[0]!.rateValueWithVat * 100));
    expect([postamat.days_min, postamat.days_max]).toEqual([
      raw.deliverySL[0]!.minimalSl,
      raw.deliverySL[0]!.sl,
    ]);
    // The tobacco point's SL has no minimalSl: both ends are sl.
    const tobacco = out.find((r) => r.service_code === '5post:TOBACCO')!;
    expect(tobacco.days_min).toBe(tobacco.days_max);
  });

  it('downloads once (one JWT, all pages) and then quotes without a call', async () => {
    const s = await sim();
    const a = adapter(s.url, { pageSize: 50 });
    await Promise.all([
      a.quote(request(), ctx()),
      a.quote(request({ to: { city: 'Самара', postalCode: null } }), ctx()),
    ]);
    const pages = Math.ceil(fivePostPoints().length / 50);
    expect(s.tokenRequests()).toBe(1);
    expect(s.pageRequests()).toBe(pages);
    const before = s.requestCount();
    rates(await a.quote(request({ to: { city: 'Екатеринбург', postalCode: null } }), ctx()));
    expect(s.requestCount()).toBe(before);
  });

  it('Новосибирск honestly has no 5Post point; Нигдевск is not a city', async () => {
    const s = await sim();
    const a = adapter(s.url);
    expect(await a.quote(request({ to: { city: 'Новосибирск', postalCode: '630000' } }), ctx())).toEqual({
      ok: false,
      kind: 'no_service',
      detail: '5Post has no pickup point in Новосибирск',
    });
    expect(await a.quote(request({ to: { city: 'Нигдевск', postalCode: null } }), ctx())).toMatchObject({
      ok: false,
      kind: 'city_not_found',
    });
    expect(await a.quote(request({ from: { city: 'Нигдевск', postalCode: null } }), ctx())).toMatchObject({
      ok: false,
      kind: 'city_not_found',
    });
  });

  it('skips points whose cells cannot take the parcel', async () => {
    const s = await sim();
    const out = rates(
      await adapter(s.url).quote(
        request({ parcel: { weight_grams: 6000, length_cm: 50, width_cm: 30, height_cm: 20 } }),
        ctx(),
      ),
    );
    // The tobacco cell is 36 cm and 5 kg; the postamat's 64×41×38 takes 50×30×20.
    expect(out.map((r) => r.service_code)).toEqual(['5post:ISSUE_POINT', '5post:POSTAMAT']);
  });

  it('prices above 3 kg by the setting: per started kilogram or pro rata', async () => {
    const s = await sim();
    const parcel = { weight_grams: 4200, length_cm: 30, width_cm: 20, height_cm: 10 };
    const light = rates(await adapter(s.url).quote(request(), ctx()));
    const started = rates(await adapter(s.url).quote(request({ parcel }), ctx()));
    const prorata = rates(
      await adapter(s.url, { overweight: 'proportional' }).quote(request({ parcel }), ctx()),
    );
    const raw = simPoint('POSTAMAT', 'Казань');
    const extra = Math.round(raw.rate[0]!.rateExtraValueWithVat * 100);
    const pick = (rs: typeof light) => rs.find((r) => r.service_code === '5post:POSTAMAT')!.price_kopecks;
    expect(pick(started) - pick(light)).toBe(2 * extra);
    expect(pick(prorata) - pick(light)).toBe(Math.floor((extra * 1200 + 500) / 1000));
  });

  it('keeps the catalogue in SQLite: a new adapter on the same file makes no call', async () => {
    const s = await sim();
    const store = tempStore();
    rates(await adapter(s.url, { store: store.pickupCatalogue }).quote(request(), ctx()));
    const calls = s.requestCount();
    const out = rates(await adapter(s.url, { store: store.pickupCatalogue }).quote(request(), ctx()));
    expect(out).toHaveLength(3);
    expect(s.requestCount()).toBe(calls);
    const row = store.db.prepare('SELECT point_count, unreadable_count FROM fivepost_catalogues').get() as {
      point_count: number;
      unreadable_count: number;
    };
    expect(row.unreadable_count).toBe(1); // the 999972 trigger point
    // Inactive points are not kept (audit F8).
    const inactive = fivePostPoints().filter((p) => p.extStatus !== 'ACTIVE').length;
    expect(inactive).toBeGreaterThan(0);
    expect(row.point_count).toBe(fivePostPoints().length - inactive - 1);
  });

  it('a stale catalogue answers at once and is refreshed in the background', async () => {
    const s = await sim();
    let now = Date.now();
    const a = adapter(s.url, { nowMs: () => now });
    rates(await a.quote(request(), ctx()));
    const pages = s.pageRequests();
    now = dayLater(now);
    s.setCatalogueBehaviour('hang');
    rates(await a.quote(request(), ctx(2_000))); // answered from the old catalogue, not held by the download
    await vi.waitFor(() => expect(s.pageRequests()).toBe(pages + 1));
    rates(await a.quote(request(), ctx(2_000))); // the hung download is joined, not repeated
    expect(s.pageRequests()).toBe(pages + 1);
  });

  it('a cold cache waits at most the quote’s signal; the download goes on for the next quote', async () => {
    const s = await sim();
    s.setCatalogueBehaviour('hang');
    const a = adapter(s.url);
    await expect(a.quote(request(), ctx(300))).rejects.toThrow();
    expect(s.pageRequests()).toBe(1);
    s.setCatalogueBehaviour('ok');
    // Still the one download in flight (hung): a second quote joins it rather than starting another.
    await expect(a.quote(request(), ctx(300))).rejects.toThrow();
    expect(s.pageRequests()).toBe(1);
  });

  it('a failed cold download is a carrier_error and is not retried for a while', async () => {
    const s = await sim();
    s.setCatalogueBehaviour('error');
    let now = Date.now();
    const a = adapter(s.url, { nowMs: () => now });
    const first = await a.quote(request(), ctx());
    expect(first).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!first.ok && 'detail' in first ? first.detail : '').toMatch(/5Post catalogue: page 0: HTTP 500/);
    s.setCatalogueBehaviour('ok');
    expect(await a.quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(s.pageRequests()).toBe(1);
    now += RETRY_AFTER_MS;
    rates(await a.quote(request(), ctx()));
  });

  it('a wrong API key is a carrier_error naming the key; none is not_configured without a call', async () => {
    const s = await sim();
    const out = await adapter(s.url, { apiKey: 'wrong' }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!out.ok && 'detail' in out ? out.detail : '').toMatch(/rejected the API key \(Invalid ApiKey\)/);
    expect(await adapter(s.url, { apiKey: '' }).quote(request(), ctx())).toMatchObject({
      kind: 'not_configured',
    });
    expect(s.pageRequests()).toBe(0);
  });

  it('asks for a new JWT when 5Post refuses one as expired', async () => {
    const s = await sim(48 * 3600); // a JWT that by its own exp outlives the catalogue's day
    let now = Date.now();
    const a = adapter(s.url, { nowMs: () => now, pageSize: 100 });
    rates(await a.quote(request(), ctx()));
    s.expireTokens();
    now = dayLater(now);
    const pages = s.pageRequests();
    await a.quote(request(), ctx());
    // The background refresh: its first page is refused (401), then a new JWT, then the page again.
    await vi.waitFor(() => expect(s.pageRequests()).toBe(pages * 2 + 1));
    expect(s.tokenRequests()).toBe(2);
  });
});

describe('5Post adapter ↔ answers shaped like 5Post', () => {
  async function fake(
    handler: (path: string, body: string, headers: Record<string, unknown>) => [number, unknown],
  ) {
    const seen: Array<{ path: string; body: string; headers: Record<string, unknown> }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ path: req.url ?? '', body, headers: req.headers });
        const [status, json] = handler(req.url ?? '', body, req.headers);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof json === 'string' ? json : JSON.stringify(json));
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  const point = {
    id: '11111111-2222-3333-4444-555555555555',
    type: 'POSTAMAT',
    name: 'OM000001',
    address: { zipCode: '630000', city: 'Новосибирск', lat: 55.03, lng: 82.92 },
    cellLimits: { maxCellWidth: 450, maxCellHeight: 600, maxCellLength: 450, maxWeight: 15000000 },
    rate: [
      {
        rateType: 'HUB_MOSCOW',
        rateTypeCode: '10',
        zone: '5',
        rateValue: 250.0,
        vat: 20,
        rateValueWithVat: 300.0,
        rateExtraValue: 50.0,
        rateExtraValueWithVat: 60.0,
        rateCurrency: 'RUB',
      },
    ],
    deliverySL: [{ sl: 6, minimalSl: 4, slCode: '10' }],
  };

  it('sends the JWT request as a form with the apikey in the query, pages as JSON with the Bearer JWT', async () => {
    const f = await fake((path) =>
      path.startsWith('/jwt')
        ? [200, { jwt: 'aaa.bbb.ccc', status: 'ok' }]
        : [200, { content: [point], totalPages: 1, totalElements: 1, numberOfElements: 1 }],
    );
    // protocols.md §8.3's constructed example: 1.2 kg → 30000 kopecks, days 4–6.
    const out = rates(
      await adapter(f.url).quote(request({ to: { city: 'Новосибирск', postalCode: '630000' } }), ctx()),
    );
    expect(out).toEqual([
      expect.objectContaining({
        service_code: '5post:POSTAMAT',
        price_kopecks: 30000,
        days_min: 4,
        days_max: 6,
      }),
    ]);
    expect(f.seen[0]).toMatchObject({
      path: `/jwt-generate-claims/rs256/1?apikey=${KEY}`,
      body: 'subject=OpenAPI&audience=A122019%21',
      headers: expect.objectContaining({ 'content-type': 'application/x-www-form-urlencoded' }),
    });
    expect(f.seen[1]).toMatchObject({
      path: '/api/v1/pickuppoints/query',
      body: JSON.stringify({ pageSize: CATALOGUE_PAGE_SIZE, pageNumber: 0 }),
      headers: expect.objectContaining({
        authorization: 'Bearer aaa.bbb.ccc',
        'content-type': 'application/json',
      }),
    });
  });

  it.each([
    [
      'the gateway fault',
      401,
      { fault: { faultstring: 'Invalid ApiKey', detail: { errorcode: 'oauth.v2.InvalidApiKey' } } },
      /rejected the API key \(Invalid ApiKey\)/,
    ],
    [
      'the API error',
      400,
      { error: 'Bad Request', message: 'subject expected', status: 400 },
      /token request failed: Bad Request: subject expected/,
    ],
    [
      'a status other than ok',
      200,
      { jwt: 'aaa.bbb.ccc', status: 'ERROR' },
      /token request failed: HTTP 200/,
    ],
    ['not JSON', 502, '<html>bad gateway</html>', /token request failed: HTTP 502/],
  ])('a JWT answer with %s is a carrier_error', async (_name, status, body, detail) => {
    const f = await fake(() => [status, body]);
    const out = await adapter(f.url).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!out.ok && 'detail' in out ? out.detail : '').toMatch(detail);
  });

  it.each([
    ['no content', { totalPages: 1 }],
    ['a paging fault', { content: [], totalPages: 3 }],
    ['an absurd page count', { content: [point], totalPages: 10_000 }],
  ])('a catalogue page with %s is a carrier_error and nothing is stored', async (_name, page) => {
    const f = await fake((path) => (path.startsWith('/jwt') ? [200, { jwt: 'aaa.bbb.ccc' }] : [200, page]));
    const store = memoryCatalogueStore();
    const out = await adapter(f.url, { store }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(await store.meta(`5post ${f.url}`)).toBeUndefined();
  });

  it('an unreadable point costs only itself; asking for exactly it is a carrier_error', async () => {
    const bad = {
      ...point,
      id: 'bad',
      address: { zipCode: '630001', city: 'Бердск' },
      rate: [{ rateValueWithVat: 'n/a' }],
    };
    const f = await fake((path) =>
      path.startsWith('/jwt')
        ? [200, { jwt: 'aaa.bbb.ccc' }]
        : [200, { content: [point, bad], totalPages: 1 }],
    );
    const a = adapter(f.url);
    rates(await a.quote(request({ to: { city: 'Новосибирск', postalCode: null } }), ctx()));
    const out = await a.quote(request({ to: { city: 'Бердск', postalCode: '630001' } }), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!out.ok && 'detail' in out ? out.detail : '').toMatch(
      /entry bad .* could not be read \(rate\.0\.rateValueWithVat/,
    );
  });
});

describe('5Post through POST /v1/rates (sandbox)', () => {
  async function service(): Promise<TestService> {
    const t = await startTestService({
      settings: {
        ...onlyCarriers('5post'),
      },
    });
    services.push(t);
    return t;
  }

  it('answers 5Post rates to Казань and an honest reason for Новосибирск', async () => {
    const t = await service();
    const res = await t.postRates(SHIPMENT);
    expect(res.status).toBe(200);
    expect((res.json.rates as Array<{ service_code: string }>).map((r) => r.service_code)).toContain(
      '5post:POSTAMAT',
    );
    const nsk = await t.postRates({ ...SHIPMENT, to: { city: 'Новосибирск', postal_code: '630000' } });
    expect(nsk.status).toBe(503);
    // The /v1 wording of no_service; the adapter's detail ("5Post has no pickup point in Новосибирск") is
    // checked against the adapter above.
    expect(JSON.stringify(nsk.json)).toContain('no service on this route');
  });

  it.each([
    ['999971', 'no service on this route'],
    ['999972', 'could not be read'],
    ['999973', 'no service on this route'],
    ['999990', 'no service on this route'],
    ['999999', 'no service on this route'],
  ])('trigger %s → 503 with %s', async (postal, reason) => {
    const t = await service();
    const res = await t.postRates({ ...SHIPMENT, to: { city: 'Казань', postal_code: postal } });
    expect(res.status).toBe(503);
    expect(JSON.stringify(res.json)).toContain(reason);
  });

  it('other carriers’ triggers are ordinary indexes', async () => {
    const t = await service();
    const res = await t.postRates({ ...SHIPMENT, to: { city: 'Казань', postal_code: '999922' } });
    expect(res.status).toBe(200);
  });
});
