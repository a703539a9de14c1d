// The Yandex Delivery adapter against its simulator over real HTTP on 127.0.0.1, against hand-made servers
// answering like Yandex, and through /v1/rates with Yandex switched on (sandbox), each trigger included.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from '../../../core/carriers/simulators/yandex';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { createYandexAdapter, type YandexAdapterOptions } from '../../../core/carriers/yandex';
import type { Logger } from '../../../core/util/logger';
import { startTestService, type TestService } from '../../helpers/service';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const sims: SimulatorHandle[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

async function sim(): Promise<SimulatorHandle> {
  const s = await startYandexSimulator();
  sims.push(s);
  return s;
}

function adapter(baseUrl: string, over: Partial<YandexAdapterOptions> = {}) {
  return createYandexAdapter({ baseUrl, token: YANDEX_SIM_TOKEN, ...over });
}

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel,
    declaredValueKopecks: 150_000,
    ...over,
  });
}
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

async function fakeYandex(answer: (path: string) => { status: number; body: unknown }) {
  const seen: Array<{ path: string; body: unknown; auth: string | undefined }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({
        path,
        body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
        auth: req.headers.authorization,
      });
      const a = answer(path);
      const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** Geo, points and a price, as the platform answers them; `price` overrides the calculator's answer. */
function platform(price: { status: number; body: unknown }) {
  return (path: string) => {
    if (path.endsWith('/location/detect'))
      return { status: 200, body: { variants: [{ geo_id: 43, address: 'Россия, Казань' }] } };
    if (path.endsWith('/pickup-points/list')) {
      return {
        status: 200,
        body: { points: [{ id: '01946f4f013c7337874ec2fb848a58a4', available_for_dropoff: true }] },
      };
    }
    return price;
  };
}

describe('Yandex adapter against the simulator', () => {
  it('quotes a pickup point; the door, asked with a town-level address, is refused as Yandex does', async () => {
    const s = await sim();
    const r = await adapter(s.url).quote(request(), ctx());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // The simulator refuses an address without a street ("Cannot parse destination info", audit Y3): that
    // leg is no door rate, never an error for the quote.
    expect(r.rates.map((x) => [x.service_code, x.delivery_type])).toEqual([
      ['yandex:self_pickup', 'pickup_point'],
    ]);
    expect(r.rates.every((x) => x.days_min !== null && x.days_min! <= 2)).toBe(true);
  });

  it('an unknown place is city_not_found; a town without pickup points is no service, not an error', async () => {
    const s = await sim();
    const a = adapter(s.url);
    expect(await a.quote(request({ to: { city: 'Нигдевск', postalCode: null } }), ctx())).toMatchObject({
      kind: 'city_not_found',
    });
    // Карачев (≈ 20 000 people) is below the simulator's pickup-point threshold, and the door leg has only the
    // town to send.
    const small = await a.quote(request({ to: { city: 'Карачев', postalCode: null } }), ctx());
    expect(small).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringMatching(/town-level/),
    });
  });

  it('a wrong token is a carrier_error; no token is not_configured with no call', async () => {
    const s = await sim();
    expect(await adapter(s.url, { token: 'nope' }).quote(request(), ctx())).toMatchObject({
      ok: false,
      kind: 'carrier_error',
    });
    const before = s.requestCount();
    expect(await adapter(s.url, { token: ' ' }).quote(request(), ctx())).toMatchObject({
      kind: 'not_configured',
    });
    expect(s.requestCount()).toBe(before);
  });

  it('the triggers: 500 → carrier_error, 404 no_delivery_options → no_service', async () => {
    const s = await sim();
    const a = adapter(s.url);
    expect(
      await a.quote(request({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.yandex.error } }), ctx()),
    ).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(
      await a.quote(
        request({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.yandex.noService } }),
        ctx(),
      ),
    ).toMatchObject({ ok: false, kind: 'no_service' });
  });
});

describe('Yandex adapter against servers answering like Yandex', () => {
  it('sends Bearer, grams, cm as dx=length dy=height dz=width, kopecks; uses the configured station', async () => {
    const f = await fakeYandex(
      platform({ status: 200, body: { pricing_total: '225.7 RUB', delivery_days: 7 } }),
    );
    const r = await adapter(f.url, {
      token: 'y2_token',
      sourceStationId: 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924',
    }).quote(request(), ctx());
    expect(r.ok && r.rates.map((x) => x.price_kopecks)).toEqual([22570, 22570]);
    const calls = f.seen.filter((x) => x.path === '/api/b2b/platform/pricing-calculator');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.auth).toBe('Bearer y2_token');
    const door = calls
      .map((c) => c.body as Record<string, unknown>)
      .find((b) => b.tariff === 'time_interval')!;
    expect(door).toEqual({
      source: { platform_station_id: 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924' },
      destination: { address: '420000, Республика Татарстан, Казань' },
      tariff: 'time_interval',
      total_weight: 1200,
      total_assessed_price: 150_000,
      client_price: 0,
      payment_method: 'already_paid',
      places: [{ physical_dims: { weight_gross: 1200, dx: 30, dy: 15, dz: 20 } }],
    });
    const pvz = calls.map((c) => c.body as Record<string, unknown>).find((b) => b.tariff === 'self_pickup')!;
    expect(pvz.destination).toEqual({ platform_station_id: '01946f4f013c7337874ec2fb848a58a4' });
    // The configured station is the source: no drop-off point is looked up.
    expect(
      f.seen.filter((x) => (x.body as Record<string, unknown>)?.available_for_dropoff === true),
    ).toHaveLength(0);
  });

  it.each([
    [400, { code: 'no_delivery_options', message: 'No delivery options' }],
    [404, { code: 'not_found', message: 'No delivery options' }],
  ])('HTTP %s "no delivery options" is no_service', async (status, body) => {
    const f = await fakeYandex(platform({ status, body }));
    expect(await adapter(f.url).quote(request(), ctx())).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('an unknown error code is a carrier_error and is logged; a malformed answer never throws', async () => {
    const warnings: unknown[] = [];
    const logger = {
      warn: (...a: unknown[]) => warnings.push(a),
      info: () => {},
      error: () => {},
    } as unknown as Logger;
    const f = await fakeYandex(platform({ status: 400, body: { code: 'weird_thing', message: 'Hm' } }));
    expect(await adapter(f.url, { logger }).quote(request(), ctx())).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'Yandex HTTP 400: weird_thing: Hm',
    });
    expect(JSON.stringify(warnings)).toContain('weird_thing');
    const bad = await fakeYandex(platform({ status: 200, body: { pricing_total: '225,7 руб' } }));
    expect(await adapter(bad.url).quote(request(), ctx())).toMatchObject({
      ok: false,
      kind: 'carrier_error',
    });
    const html = await fakeYandex(platform({ status: 200, body: '<html>' }));
    expect(await adapter(html.url).quote(request(), ctx())).toMatchObject({
      ok: false,
      kind: 'carrier_error',
    });
  });
});

describe('/v1/rates with Yandex switched on (sandbox)', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      settings: { 'carriers.yandex.enabled': 'on', 'carriers.yandex.timeout_ms': '1500' },
    });
  });
  afterAll(() => t.close());

  const ship = (postal: string, p: object = parcel) => ({
    from: { city: 'Москва', postal_code: '101000' },
    to: { city: 'Казань', postal_code: postal },
    parcel: p,
    carriers: ['yandex'],
  });

  it('answers Yandex rates (the pickup point: the simulator refuses a door address without a street)', async () => {
    const r = await t.postRates(ship('420000'));
    expect(r.status).toBe(200);
    expect(r.json.rates.map((x: { service_code: string }) => x.service_code).sort()).toEqual([
      'yandex:self_pickup',
    ]);
    expect(r.json.rates[0].carrier_name).toBe('Яндекс Доставка');
  });

  it('the 900 kg pallet is over Yandex limits, decided without a call', async () => {
    const r = await t.postRates(
      ship('420000', { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 }),
    );
    expect(r.json.unavailable).toEqual([
      {
        carrier: 'yandex',
        reason:
          'parcel exceeds carrier limits: weight 900 kg over 31 kg; longest side 300 cm over 60 cm; ' +
          'sum of sides 900 cm over 145 cm',
      },
    ]);
  });

  it.each([
    [CARRIER_TRIGGERS.yandex.timeout, 'timeout'],
    [CARRIER_TRIGGERS.yandex.error, 'carrier error: Yandex HTTP 500: internal_error: Internal server error'],
    [CARRIER_TRIGGERS.yandex.noService, 'no service on this route'],
  ])('trigger %s → %s', async (postal, reason) => {
    const r = await t.postRates(ship(postal));
    expect(r.json.unavailable).toEqual([{ carrier: 'yandex', reason }]);
  });
});
