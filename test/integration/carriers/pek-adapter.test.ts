// The PEK adapter against the PEK simulator over real HTTP on 127.0.0.1, against hand-made servers answering
// like PEK, and through /v1/rates with PEK switched on (sandbox), each trigger included.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPekAdapter, type PekAdapterOptions } from '../../../core/carriers/pek';
import { NO_RATE_LIMIT, slidingWindowLimiter } from '../../../core/carriers/pek/rate-limit';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../../../core/carriers/simulators/pek';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
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
  const s = await startPekSimulator();
  sims.push(s);
  return s;
}

function adapter(baseUrl: string, over: Partial<PekAdapterOptions> = {}) {
  return createPekAdapter({ baseUrl, login: PEK_SIM_LOGIN, apiKey: PEK_SIM_API_KEY, ...over });
}

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const PALLET = { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 };

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Новосибирск', postalCode: '630000' },
    parcel,
    declaredValueKopecks: 0,
    ...over,
  });
}
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

/** A server answering every POST with `answer(path)`, recording what it was sent. */
async function fakePek(answer: (path: string) => { status: number; body: unknown }) {
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, seen };
}

const ZONE = { mainWarehouseId: 'a1b2c3d4-0000-4000-8000-000000000001', branchTitle: 'Москва' };

describe('PEK adapter against the simulator', () => {
  it('quotes LTL Авто to the terminal and to the door, with calendar days', async () => {
    const s = await sim();
    const r = await adapter(s.url).quote(request(), ctx());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rates.map((x) => [x.service_code, x.delivery_type])).toEqual([
      ['pek:3:terminal', 'terminal'],
      ['pek:3:door', 'door'],
    ]);
    expect(r.rates[0]!.service_name).toBe('LTL Авто, до терминала');
    expect(r.rates[1]!.price_kopecks).toBeGreaterThan(r.rates[0]!.price_kopecks);
    expect(r.rates[0]!.days_min).toBeGreaterThan(0);
  });

  it('a 900 kg, 300×300×300 cm pallet gets terminal rates (LTL); avia refuses it', async () => {
    const s = await sim();
    const r = await adapter(s.url, { types: [3, 1] }).quote(request({ parcel: PALLET }), ctx());
    expect(r.ok && r.rates.map((x) => x.service_code)).toEqual(['pek:3:terminal', 'pek:3:door']);
  });

  it('an unknown place is city_not_found; a town PEK has no branch in is no_service', async () => {
    const s = await sim();
    const a = adapter(s.url);
    expect(await a.quote(request({ to: { city: 'Нигдевск', postalCode: null } }), ctx())).toMatchObject({
      ok: false,
      kind: 'city_not_found',
    });
    // Кольчугино (≈ 40 000 people) is in the table but below the simulator's branch threshold.
    expect(await a.quote(request({ to: { city: 'Кольчугино', postalCode: null } }), ctx())).toMatchObject({
      ok: false,
      kind: 'no_service',
    });
  });

  it('wrong credentials are a carrier_error, never rates', async () => {
    const s = await sim();
    const r = await adapter(s.url, { apiKey: 'wrong' }).quote(request(), ctx());
    expect(r).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(!r.ok && r.kind === 'carrier_error' && r.detail).toContain('credentials');
  });

  it('without a login or API key: not_configured, no call', async () => {
    const s = await sim();
    expect(await adapter(s.url, { login: '' }).quote(request(), ctx())).toMatchObject({
      kind: 'not_configured',
    });
    expect(await adapter(s.url, { apiKey: null }).quote(request(), ctx())).toMatchObject({
      kind: 'not_configured',
    });
    expect(s.requestCount()).toBe(0);
  });

  it('the triggers: error inside HTTP 200 → carrier_error; no service → no_service', async () => {
    const s = await sim();
    const a = adapter(s.url);
    const err = await a.quote(
      request({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.pek.error } }),
      ctx(),
    );
    expect(err).toMatchObject({ ok: false, kind: 'carrier_error' });
    const none = await a.quote(
      request({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.pek.noService } }),
      ctx(),
    );
    expect(none).toMatchObject({ ok: false, kind: 'no_service' });
    // Another carrier's trigger is an ordinary index here.
    const other = await a.quote(
      request({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.yandex.error } }),
      ctx(),
    );
    expect(other.ok).toBe(true);
  });
});

describe('PEK adapter against servers answering like PEK', () => {
  it('sends Basic auth, the current `types` protocol, kg/m/m³ and warehouse ids', async () => {
    const f = await fakePek((path) =>
      path.endsWith('/findzonebyaddress/')
        ? { status: 200, body: ZONE }
        : {
            status: 200,
            body: {
              hasError: false,
              currencyCode: '643',
              transfers: [{ type: 3, hasError: false, costTotal: '2145.5', estDeliveryTime: 6 }],
            },
          },
    );
    const r = await adapter(f.url, { login: 'shop', apiKey: 'k-1' }).quote(request(), ctx());
    expect(r.ok && r.rates[0]!.price_kopecks).toBe(214550);
    const calc = f.seen.filter((x) => x.path === '/api/v1/calculator/calculateprice/');
    expect(calc).toHaveLength(2);
    expect(calc[0]!.auth).toBe(`Basic ${Buffer.from('shop:k-1').toString('base64')}`);
    const terminal = calc.map((c) => c.body as Record<string, unknown>).find((b) => b.isDelivery === false)!;
    expect(terminal).toMatchObject({
      types: [3],
      senderWarehouseId: ZONE.mainWarehouseId,
      receiverWarehouseId: ZONE.mainWarehouseId,
      isPickUp: false,
      cargos: [{ length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 }],
      currencyCode: '643',
    });
    expect(terminal).not.toHaveProperty('transportingTypes');
    const zones = f.seen.filter((x) => x.path === '/api/v1/branches/findzonebyaddress/').map((x) => x.body);
    expect(zones).toEqual(
      expect.arrayContaining([
        { address: 'Россия, 101000, Москва' },
        { address: 'Россия, 630000, Новосибирская область, Новосибирск' },
      ]),
    );
  });

  it('an error inside HTTP 200 is a carrier_error and is logged; an empty zone answer is "not served"', async () => {
    const warnings: unknown[] = [];
    const logger = {
      warn: (...a: unknown[]) => warnings.push(a),
      info: () => {},
      error: () => {},
    } as unknown as Logger;
    const f = await fakePek((path) =>
      path.endsWith('/findzonebyaddress/')
        ? { status: 200, body: ZONE }
        : { status: 200, body: { error: { title: 'Ошибка', message: 'Сервис недоступен' } } },
    );
    const r = await adapter(f.url, { logger }).quote(request(), ctx());
    expect(r).toEqual({ ok: false, kind: 'carrier_error', detail: 'PEK error: Ошибка: Сервис недоступен' });
    expect(warnings.length).toBeGreaterThan(0);

    const empty = await fakePek(() => ({ status: 200, body: {} }));
    expect(await adapter(empty.url).quote(request(), ctx())).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('a malformed answer is a carrier_error, never a throw', async () => {
    const f = await fakePek((path) =>
      path.endsWith('/findzonebyaddress/')
        ? { status: 200, body: ZONE }
        : { status: 200, body: '<html>oops' },
    );
    expect(await adapter(f.url).quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
  });

  // #16 changed this on purpose: a call PEK's minute does not allow is carrier_busy (no failure of PEK's), and
  // one asker alone holds half the window (2 of 4).
  it('over its rate limit a request fails fast without calling PEK, as carrier busy', async () => {
    const f = await fakePek(() => ({ status: 200, body: ZONE }));
    const limiter = slidingWindowLimiter({ limit: 4, windowMs: 60_000, maxWaitMs: 100 });
    const r = await adapter(f.url, { limiter }).quote(request(), ctx());
    // Two zone lookups take the asker's two slots; the calculator is not called.
    expect(r).toMatchObject({ ok: false, kind: 'carrier_busy' });
    expect(!r.ok && r.kind === 'carrier_busy' && r.detail).toContain('requests a minute');
    expect(f.seen.filter((x) => x.path.endsWith('/calculateprice/'))).toHaveLength(0);
  });
});

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../fixtures/carriers/pek', name), 'utf8'));

describe('PEK door leg and root hasError (audit P5, P9)', () => {
  it('a simulator that refuses a town-only door address: terminal rates stay, the refusal is logged', async () => {
    const s = await startPekSimulator({ streetRequired: true });
    sims.push(s);
    const lines: unknown[] = [];
    const logger = { warn() {}, error() {}, info: (m: string, f?: object) => lines.push([m, f]) } as Logger;
    const r = await adapter(s.url, { logger }).quote(request(), ctx());
    expect(r.ok && r.rates.map((x) => x.service_code)).toEqual(['pek:3:terminal']);
    expect(JSON.stringify(lines)).toContain('no PEK door rate');
  });

  it('a refused door address and an unserved terminal leg: no service, never a carrier error', async () => {
    const f = await fakePek((path) => {
      if (path.endsWith('/findzonebyaddress/')) return { status: 200, body: ZONE };
      return { status: 400, body: fixture('error-400-door-address.json') };
    });
    // Both legs get the same answer here: the terminal leg a validation error, the door leg "no door rate".
    expect(await adapter(f.url).quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
    const g = await fakePek((path) => {
      if (path.endsWith('/findzonebyaddress/')) return { status: 200, body: ZONE };
      return { status: 200, body: fixture('calc-root-haserror-route.json') };
    });
    expect(await adapter(g.url).quote(request(), ctx())).toEqual({
      ok: false,
      kind: 'no_service',
      detail: 'Нет возможности доставки по указанному направлению',
    });
  });

  it('PEK_STREETLESS_DOOR "terminal_only": one calculator call, terminal rates only', async () => {
    const s = await sim();
    const r = await adapter(s.url, { streetlessDoor: 'terminal_only' }).quote(request(), ctx());
    expect(r.ok && r.rates.map((x) => x.service_code)).toEqual(['pek:3:terminal']);
    expect(s.requestCount()).toBe(3); // two zone lookups, one calculation
  });
});

describe('PEK’s 100 requests a minute (the simulator answers 429 when asked to)', () => {
  it('with the adapter’s limiter the simulator never answers 429 (busy instead); without it, 429 is a carrier error', async () => {
    const s = await startPekSimulator({ requestsPerMinute: 4 });
    sims.push(s);
    // A window of 8 of which one asker holds 4: the simulator's own 4 a minute.
    const limited = adapter(s.url, {
      limiter: slidingWindowLimiter({ limit: 8, windowMs: 60_000, maxWaitMs: 50 }),
    });
    expect((await limited.quote(request(), ctx())).ok).toBe(true); // 2 zone lookups + 2 calculations
    const held = await limited.quote(request(), ctx());
    expect(held).toMatchObject({
      ok: false,
      kind: 'carrier_busy',
      detail: expect.stringContaining('requests a minute'),
    });
    expect(s.requestCount()).toBe(4);

    const t = await startPekSimulator({ requestsPerMinute: 2 });
    sims.push(t);
    const unlimited = await adapter(t.url, { limiter: NO_RATE_LIMIT }).quote(request(), ctx());
    expect(unlimited).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringContaining('429'),
    });
  });
});

describe('/v1/rates with PEK switched on (sandbox)', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      settings: { 'carriers.pek.enabled': 'on', 'carriers.pek.timeout_ms': '1500' },
    });
  });
  afterAll(() => t.close());

  const ship = (postal: string, p: object = parcel) => ({
    from: { city: 'Москва', postal_code: '101000' },
    to: { city: 'Казань', postal_code: postal },
    parcel: p,
    carriers: ['pek'],
  });

  it('answers PEK rates', async () => {
    const r = await t.postRates(ship('420000'));
    expect(r.status).toBe(200);
    expect(r.json.rates.map((x: { service_code: string }) => x.service_code).sort()).toEqual([
      'pek:3:door',
      'pek:3:terminal',
    ]);
    expect(r.json.rates[0].carrier_name).toBe('ПЭК');
  });

  it('the 900 kg pallet: PEK terminal rates, not "exceeds limits"', async () => {
    const r = await t.postRates(ship('420000', PALLET));
    expect(r.status).toBe(200);
    expect(r.json.rates.some((x: { delivery_type: string }) => x.delivery_type === 'terminal')).toBe(true);
  });

  it.each([
    [CARRIER_TRIGGERS.pek.timeout, 'timeout'],
    [
      CARRIER_TRIGGERS.pek.error,
      'carrier error: PEK error: Ошибка расчета: Внутренняя ошибка сервиса расчета стоимости',
    ],
    [CARRIER_TRIGGERS.pek.noService, 'no service on this route'],
  ])('trigger %s → %s', async (postal, reason) => {
    const r = await t.postRates(ship(postal));
    expect(r.json.unavailable).toEqual([{ carrier: 'pek', reason }]);
  });

  it('a root hasError for an unserved route is an answer: four in a row never open the breaker (P9)', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await t.postRates(ship(CARRIER_TRIGGERS.pek.noService));
      expect(r.json.unavailable).toEqual([{ carrier: 'pek', reason: 'no service on this route' }]);
    }
  });
});
