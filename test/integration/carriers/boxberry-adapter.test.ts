// The Boxberry adapter against its simulator and against hand-made servers answering like Boxberry, and
// Boxberry through POST /v1/rates (sandbox mode, Boxberry switched on), each sandbox trigger included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../core/carriers/http';
import { afterEach, describe, expect, it } from 'vitest';
import { createBoxberryAdapter } from '../../../core/carriers/boxberry';
import {
  startBoxberrySimulator,
  type BoxberrySimulatorHandle,
} from '../../../core/carriers/simulators/boxberry';
import { boxberryCities } from '../../../core/carriers/simulators/boxberry-cities';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import type { Logger } from '../../../core/util/logger';
import { SHIPMENT, startTestService, type TestService, onlyCarriers } from '../../helpers/service';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const TOKEN = 'test-token';
const sims: BoxberrySimulatorHandle[] = [];
const servers: Server[] = [];
const services: TestService[] = [];

afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
  await Promise.all(services.splice(0).map((s) => s.close()));
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

async function sim(): Promise<BoxberrySimulatorHandle> {
  const s = await startBoxberrySimulator({ token: TOKEN });
  sims.push(s);
  return s;
}

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 150_050,
    ...over,
  });
}

const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

function rates(out: CarrierOutcome) {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates;
}

/** A server answering every request with `answer(req, body)`; records what it was sent. */
async function fakeBoxberry(answer: (method: string, body: string) => unknown) {
  const seen: Array<{ method: string; url: string; body: string; contentType: string | undefined }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://x');
      const method =
        url.searchParams.get('method') ?? (JSON.parse(body || '{}') as { method?: string }).method ?? '';
      seen.push({ method, url: req.url ?? '', body, contentType: req.headers['content-type'] });
      const out = answer(method, body);
      if (typeof out === 'string') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(out);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/json.php`, seen };
}

const CITIES = [
  { Code: '68', Name: 'Москва', Region: 'Москва', Kladr: '7700000000000', CountryCode: '643' },
  { Code: '45', Name: 'Казань', Region: 'Татарстан', Kladr: '1600000100000', CountryCode: '643' },
];

function fakeAnswers(calculation: unknown) {
  return (method: string) => {
    if (method === 'ListCitiesFull') return CITIES;
    if (method === 'ZipCheck') return [{ ExpressDelivery: 1, ZoneExpressDelivery: '1', Remoteness: 0 }];
    return calculation;
  };
}

function recordingLogger() {
  const warnings: Array<{ message: string; fields: unknown }> = [];
  const logger = {
    warn: (message: string, fields?: unknown) => warnings.push({ message, fields }),
    info: () => {},
    error: () => {},
    debug: () => {},
  } as unknown as Logger;
  return { logger, warnings };
}

describe('Boxberry adapter ↔ simulator', () => {
  it('quotes a pickup point and a courier in exact kopecks, pickup cheaper', async () => {
    const s = await sim();
    const out = rates(await createBoxberryAdapter({ baseUrl: s.url, token: TOKEN }).quote(request(), ctx()));
    expect(out.map((r) => r.service_code).sort()).toEqual(['boxberry:1', 'boxberry:2']);
    const pvz = out.find((r) => r.service_code === 'boxberry:1')!;
    const courier = out.find((r) => r.service_code === 'boxberry:2')!;
    expect(pvz).toMatchObject({
      carrier: 'boxberry',
      carrier_name: 'Boxberry',
      delivery_type: 'pickup_point',
    });
    expect(courier.delivery_type).toBe('door');
    expect(pvz.price_kopecks).toBeLessThan(courier.price_kopecks);
    // x.37 ₽ base plus 0.5 % of 1500.50 ₽ (7.50 ₽): decimals survive exactly.
    expect(pvz.price_kopecks % 100).toBe(87);
    expect(pvz.days_min).toBeGreaterThanOrEqual(2);
    expect(pvz.days_min).toBeLessThanOrEqual(6);
    expect(s.methodCount('ListCitiesFull')).toBe(1);
    expect(s.methodCount('ZipCheck')).toBe(1);
    expect(s.methodCount('DeliveryCalculation')).toBe(2);
  });

  it('downloads the city list once per adapter and checks an index once a day', async () => {
    const s = await sim();
    const adapter = createBoxberryAdapter({ baseUrl: s.url, token: TOKEN });
    await adapter.quote(request(), ctx());
    await adapter.quote(request({ to: { city: 'Самара', postalCode: '443000' } }), ctx());
    await adapter.quote(request(), ctx());
    expect(s.methodCount('ListCitiesFull')).toBe(1);
    expect(s.methodCount('ZipCheck')).toBe(2);
  });

  it('a small town without Boxberry is no_service; an unknown one city_not_found', async () => {
    const s = await sim();
    const adapter = createBoxberryAdapter({ baseUrl: s.url, token: TOKEN });
    const small = await adapter.quote(request({ to: { city: 'Мосальск', postalCode: null } }), ctx());
    expect(small).toMatchObject({ ok: false, kind: 'no_service' });
    const nowhere = await adapter.quote(request({ to: { city: 'Нигдевск', postalCode: null } }), ctx());
    expect(nowhere).toMatchObject({ ok: false, kind: 'city_not_found', detail: 'Нигдевск' });
  });

  it('an index the courier does not serve leaves only the pickup point', async () => {
    const s = await sim();
    const out = rates(
      await createBoxberryAdapter({ baseUrl: s.url, token: TOKEN }).quote(
        request({ to: { city: 'Казань', postalCode: '999000' } }),
        ctx(),
      ),
    );
    expect(out.map((r) => r.service_code)).toEqual(['boxberry:1']);
  });

  it('the simulated ListCitiesFull is over the 1 MiB a quote answer gets, as the real one is expected to be', async () => {
    const s = await sim();
    // Under its own cap (CITY_LIST_MAX_BYTES) it loads whole: no fallback to ListCities.
    await createBoxberryAdapter({ baseUrl: s.url, token: TOKEN }).quote(request(), ctx());
    expect(s.methodCount('ListCitiesFull')).toBe(1);
    expect(s.methodCount('ListCities')).toBe(0);
    // Held to 1 MiB, it does not fit, and the pickup-point towns answer instead.
    const tight = await sim();
    await createBoxberryAdapter({
      baseUrl: tight.url,
      token: TOKEN,
      cityListMaxBytes: MAX_CARRIER_RESPONSE_BYTES,
    }).quote(request(), ctx());
    expect(tight.methodCount('ListCitiesFull')).toBe(1);
    expect(tight.methodCount('ListCities')).toBe(1);
  });

  it('a sender town without a reception point is no service naming the cause, with no calculator call', async () => {
    const s = await sim();
    const sender = boxberryCities().find((c) => c.pickupPoint && !c.reception && !c.locality)!;
    const out = await createBoxberryAdapter({ baseUrl: s.url, token: TOKEN }).quote(
      request({ from: { city: sender.city.name, postalCode: sender.city.postalCode } }),
      ctx(),
    );
    expect(out).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringMatching(/no reception point/),
    });
    expect(s.methodCount('DeliveryCalculation')).toBe(0);
  });

  it('a wrong token is a carrier_error naming the token', async () => {
    const s = await sim();
    const out = await createBoxberryAdapter({ baseUrl: s.url, token: 'wrong' }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!out.ok && 'detail' in out ? out.detail : '').toMatch(/Boxberry city list: Неверный токен/);
  });

  it('without a token: not_configured and no call', async () => {
    const s = await sim();
    const out = await createBoxberryAdapter({ baseUrl: s.url, token: ' ' }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'not_configured' });
    expect(s.requestCount()).toBe(0);
  });
});

describe('Boxberry adapter ↔ answers shaped like Boxberry', () => {
  it('sends DeliveryCalculation as a JSON POST with the token in the body, grams, whole cm and roubles', async () => {
    const fake = await fakeBoxberry(
      fakeAnswers({
        error: false,
        result: {
          DeliveryCosts: [
            { DeliveryTypeId: 1, TotalPrice: 8.253, PriceBase: 8, PriceService: 0.253, DeliveryPeriod: 3 },
          ],
        },
      }),
    );
    const out = await createBoxberryAdapter({ baseUrl: fake.url, token: TOKEN }).quote(
      request({ parcel: { weight_grams: 1200.4, length_cm: 30.2, width_cm: 20, height_cm: 10 } }),
      ctx(),
    );
    const calcs = fake.seen.filter((r) => r.method === 'DeliveryCalculation');
    expect(calcs).toHaveLength(2);
    for (const c of calcs) {
      expect(c.contentType).toBe('application/json');
      expect(c.url).toBe('/json.php');
    }
    const bodies = calcs.map((c) => JSON.parse(c.body) as Record<string, unknown>);
    expect(bodies.map((b) => b.DeliveryType).sort()).toEqual([1, 2]);
    expect(bodies[0]).toMatchObject({
      token: TOKEN,
      method: 'DeliveryCalculation',
      SenderCityId: '68',
      RecipientCityId: '45',
      OrderSum: 1500.5,
      PaySum: 0,
      UseShopSettings: 0,
      Zip: '420000',
      BoxSizes: [{ Width: 20, Height: 10, Depth: 31, Weight: 1201 }],
    });
    const list = fake.seen.find((r) => r.method === 'ListCitiesFull')!;
    expect(list.url).toBe(`/json.php?token=${TOKEN}&method=ListCitiesFull&CountryCode=643`);
    // 8.253 ₽ → 825 kopecks (half-up on the third decimal, never float × 100); type 2 missing → no rate.
    expect(rates(out)).toEqual([
      expect.objectContaining({ service_code: 'boxberry:1', price_kopecks: 825, days_min: 3, days_max: 5 }),
    ]);
  });

  it.each([
    ['{"err":"text"}', { err: 'Сервис временно недоступен' }],
    ['[{"err":"text"}]', [{ err: 'Сервис временно недоступен' }]],
    ['{"error":true,"message"}', { error: true, message: 'Сервис временно недоступен' }],
    ['{"err":true,"message"}', { err: true, message: 'Сервис временно недоступен' }],
  ])('reads the error form %s inside HTTP 200 as a carrier_error', async (_name, answer) => {
    const fake = await fakeBoxberry(fakeAnswers(answer));
    const out = await createBoxberryAdapter({ baseUrl: fake.url, token: TOKEN }).quote(request(), ctx());
    expect(out).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'Boxberry error: Сервис временно недоступен',
    });
  });

  it('PriceBase 0 for every type is no_service', async () => {
    const zero = { DeliveryTypeId: 1, TotalPrice: 0, PriceBase: 0, PriceService: 0, DeliveryPeriod: 0 };
    const fake = await fakeBoxberry(
      fakeAnswers({ error: false, result: { DeliveryCosts: [zero, { ...zero, DeliveryTypeId: 2 }] } }),
    );
    const out = await createBoxberryAdapter({ baseUrl: fake.url, token: TOKEN }).quote(request(), ctx());
    expect(out).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('a malformed answer or an HTML page is a carrier_error, never a throw', async () => {
    for (const answer of [{ result: { DeliveryCosts: 'none' } }, '<html>502</html>']) {
      const fake = await fakeBoxberry(fakeAnswers(answer));
      const out = await createBoxberryAdapter({ baseUrl: fake.url, token: TOKEN }).quote(request(), ctx());
      expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    }
  });

  it('logs an error text it does not know, without the token', async () => {
    const fake = await fakeBoxberry(fakeAnswers({ error: true, message: 'Что-то новое' }));
    const { logger, warnings } = recordingLogger();
    const out = await createBoxberryAdapter({ baseUrl: fake.url, token: TOKEN, logger }).quote(
      request(),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error', detail: 'Boxberry error: Что-то новое' });
    expect(warnings[0]?.message).toMatch(/does not know/);
    expect(JSON.stringify(warnings)).not.toContain(TOKEN);
  });
});

describe('Boxberry through POST /v1/rates (sandbox)', () => {
  async function service(): Promise<TestService> {
    const t = await startTestService({
      settings: {
        ...onlyCarriers('boxberry'),
      },
    });
    services.push(t);
    return t;
  }

  it('answers Boxberry rates', async () => {
    const t = await service();
    const res = await t.postRates(SHIPMENT);
    expect(res.status).toBe(200);
    const codes = (res.json.rates as Array<{ service_code: string }>).map((r) => r.service_code).sort();
    expect(codes).toEqual(['boxberry:1', 'boxberry:2']);
  });

  it.each([
    ['999921', 503, 'timeout'],
    [
      '999922',
      503,
      'carrier error: Boxberry error: Внутренняя ошибка сервиса расчета, повторите запрос позже',
    ],
    ['999923', 503, 'no service on this route'],
  ])('trigger %s → %i with reason %s', async (postal, status, reason) => {
    const t = await startTestService({
      settings: {
        ...onlyCarriers('boxberry'),
        'carriers.boxberry.timeout_ms': '300',
      },
    });
    services.push(t);
    const res = await t.postRates({ ...SHIPMENT, to: { city: 'Казань', postal_code: postal } });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.json)).toContain(reason);
  });
});
