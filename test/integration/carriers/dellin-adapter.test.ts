// The Dellin adapter against the Dellin simulator and hand-made servers over real HTTP on 127.0.0.1, and
// Dellin through /v1/rates in sandbox mode (switched on by settings), every trigger included.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDellinAdapter, type DellinAdapterOptions } from '../../../core/carriers/dellin';
import { DELLIN_SIM_DEFAULT_APPKEY, startDellinSimulator } from '../../../core/carriers/simulators/dellin';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import { createLocationResolver } from '../../../core/locations/resolver';
import { openStore } from '../../../core/store';
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
  const s = await startDellinSimulator();
  sims.push(s);
  return s;
}

/** A Tuesday at noon in Moscow: the simulator refuses Sundays (180012), so dates and days are fixed. */
const TUESDAY = new Date('2030-01-08T09:00:00Z');
const adapterFor = (baseUrl: string, over: Partial<DellinAdapterOptions> = {}) =>
  createDellinAdapter({ baseUrl, appkey: DELLIN_SIM_DEFAULT_APPKEY, now: () => TUESDAY, ...over });

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const PALLET = { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 };
const request = (
  to: CarrierQuoteRequest['to'],
  over: Partial<CarrierQuoteRequest> = {},
): CarrierQuoteRequest =>
  makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to,
    parcel,
    declaredValueKopecks: 0,
    ...over,
  });
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

function rates(out: CarrierOutcome) {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates;
}

/** A Dellin-like endpoint: request_terminals answers one terminal; the calculator answers `status`/`body`. */
async function fakeDellin(status: number, body: string): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/public/request_terminals.json') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"terminals":[{"id":36,"name":"Т","default":true}]}');
      } else res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

describe('Dellin adapter ↔ simulator', () => {
  it('quotes terminal and door from the sending terminal, with calendar days from the service clock’s date', async () => {
    const s = await sim();
    const out = rates(
      await adapterFor(s.url).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    );
    const by = new Map(out.map((r) => [r.service_code, r]));
    expect([...by.keys()].sort()).toEqual(['dellin:auto:door', 'dellin:auto:terminal']);
    expect(by.get('dellin:auto:terminal')).toMatchObject({
      carrier_name: 'Деловые Линии',
      delivery_type: 'terminal',
      days_min: 7,
      days_max: 9,
    });
    // Auto: the arrival at the receiving terminal + deliveryTerm (1 day); Dellin names no latest day (DL9).
    expect(by.get('dellin:auto:door')).toMatchObject({ delivery_type: 'door', days_min: 8, days_max: 8 });
    expect(by.get('dellin:auto:door')!.price_kopecks).toBeGreaterThan(
      by.get('dellin:auto:terminal')!.price_kopecks,
    );
  });

  it('takes the 900 kg, 300×300×300 cm pallet at terminal rates', async () => {
    const s = await sim();
    const out = rates(
      await adapterFor(s.url).quote(
        request({ city: 'Новосибирск', postalCode: null }, { parcel: PALLET }),
        ctx(),
      ),
    );
    expect(out.map((r) => r.service_code)).toContain('dellin:auto:terminal');
  });

  it('a Sunday produce date (180012) is retried once with the next day; days still count from the request date', async () => {
    const s = await sim();
    const sunday = new Date('2030-01-06T09:00:00Z');
    const out = rates(
      await adapterFor(s.url, { now: () => sunday }).quote(
        request({ city: 'Казань', postalCode: '420000' }),
        ctx(),
      ),
    );
    expect(out.find((r) => r.service_code === 'dellin:auto:terminal')).toMatchObject({
      days_min: 8,
      days_max: 10,
    });
  });

  it('a town without a Dellin terminal gets delivery to the address only; one that cannot send is no service', async () => {
    const s = await sim();
    const a = adapterFor(s.url);
    const out = rates(await a.quote(request({ city: 'Киров, Калужская обл', postalCode: null }), ctx()));
    expect(out.map((r) => r.service_code)).toEqual(['dellin:auto:door']);
    const from = await a.quote(
      {
        ...request({ city: 'Казань', postalCode: '420000' }),
        from: { city: 'Киров, Калужская обл', postalCode: null },
      },
      ctx(),
    );
    expect(from).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('a place the table does not know is "city not found", asked of nobody', async () => {
    const s = await sim();
    expect(
      await adapterFor(s.url).quote(request({ city: 'Нигдевск', postalCode: null }), ctx()),
    ).toMatchObject({ ok: false, kind: 'city_not_found', detail: 'Нигдевск' });
    expect(s.requestCount()).toBe(0);
  });

  it('terminal ids come from Dellin’s location API once, then from the SQLite cache', async () => {
    const s = await sim();
    const store = openStore(':memory:');
    const locations = createLocationResolver({ cache: store.locationCache });
    rates(
      await adapterFor(s.url, { locations }).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    );
    const first = s.requestCount();
    expect(first).toBe(4); // two terminal lookups, door, terminal
    rates(
      await adapterFor(s.url, { locations }).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    );
    expect(s.requestCount() - first).toBe(2);
    await store.close();
  });

  it('without an appkey: not_configured and no call; a wrong one is a carrier error naming the appkey', async () => {
    const s = await sim();
    expect(
      await adapterFor(s.url, { appkey: '' }).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    ).toMatchObject({ ok: false, kind: 'not_configured' });
    expect(s.requestCount()).toBe(0);
    expect(
      await adapterFor(s.url, { appkey: 'wrong' }).quote(
        request({ city: 'Казань', postalCode: '420000' }),
        ctx(),
      ),
    ).toMatchObject({ ok: false, kind: 'carrier_error', detail: expect.stringContaining('appkey') });
  });

  it('malformed answers are carrier errors; both legs are asked at once, and a failed door leg is the answer', async () => {
    for (const [status, body] of [
      [502, '<html>Bad Gateway</html>'],
      [200, '{"metadata":{"status":200},"data":{"price":"дорого"}}'],
      [200, '{"metadata":'],
    ] as const) {
      const fake = await fakeDellin(status, body);
      expect(
        await adapterFor(fake.url).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
      ).toMatchObject({ ok: false, kind: 'carrier_error' });
      expect(fake.paths.filter((p) => p === '/v2/calculator.json')).toHaveLength(2);
    }
  });

  it('logs an error code it does not know (never the appkey)', async () => {
    const fake = await fakeDellin(
      400,
      JSON.stringify({ metadata: { status: 400 }, errors: [{ code: 777777, title: 'Новое', detail: 'x' }] }),
    );
    const lines: unknown[] = [];
    const logger: Logger = { info() {}, error() {}, warn: (m, f) => lines.push([m, f]) };
    expect(
      await adapterFor(fake.url, { logger }).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    ).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(JSON.stringify(lines)).toContain('777777');
    expect(JSON.stringify(lines)).not.toContain(DELLIN_SIM_DEFAULT_APPKEY);
  });
});

const FIXTURES = join(__dirname, '../../fixtures/carriers/dellin');
const answerOf = (name: string, status = 200) => ({
  status,
  body: readFileSync(join(FIXTURES, name), 'utf8'),
});

/**
 * A Dellin-like endpoint answering each leg on its own: the calculator body's arrival variant says which leg
 * it is (fixtures shaped like Dellin's documented answer, test/fixtures/carriers/dellin). `terminals` is the
 * arrival city's terminal list (empty: a town without one).
 */
async function fakeLegs(
  door: { status: number; body: string },
  terminal: { status: number; body: string },
  terminals = '[{"id":42,"name":"Казань","default":true}]',
): Promise<{ url: string; calls: Array<Record<string, unknown>> }> {
  const calls: Array<Record<string, unknown>> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (req.url === '/v1/public/request_terminals.json') {
        const list = body.direction === 'derival' ? '[{"id":36,"name":"Москва","default":true}]' : terminals;
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"terminals":${list}}`);
        return;
      }
      calls.push(body);
      const arrival = (body.delivery as { arrival: { variant: string } }).arrival;
      const a = arrival.variant === 'address' ? door : terminal;
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

const arrivalOf = (call: Record<string, unknown>) =>
  (call.delivery as { arrival: Record<string, unknown> }).arrival;

describe('Dellin door leg (audit DL3, DL4)', () => {
  it('never sends `city` with the address variant: without a postal code the door leg searches the town', async () => {
    const fake = await fakeLegs(
      answerOf('calc-auto-door-xylocode.json'),
      answerOf('calc-auto-terminal.json'),
    );
    rates(await adapterFor(fake.url).quote(request({ city: 'Казань', postalCode: null }), ctx()));
    const door = fake.calls.map(arrivalOf).find((a) => a.variant === 'address')!;
    expect(door).not.toHaveProperty('city');
    expect(door).toEqual({
      variant: 'address',
      address: { search: 'Республика Татарстан, Казань' },
      time: { worktimeStart: '09:00', worktimeEnd: '18:00' },
    });
  });

  it.each(['error-180002-address.json', 'error-unknown-validation.json'])(
    'a door leg refused with a 4xx (%s) is "no door rate": the terminal rate stays',
    async (refusal) => {
      const fake = await fakeLegs(answerOf(refusal, 400), answerOf('calc-auto-terminal.json'));
      const lines: unknown[] = [];
      const logger: Logger = { warn() {}, error() {}, info: (m, f) => lines.push([m, f]) };
      const out = rates(
        await adapterFor(fake.url, { logger }).quote(
          request({ city: 'Казань', postalCode: '420000' }),
          ctx(),
        ),
      );
      expect(out.map((r) => [r.service_code, r.price_kopecks])).toEqual([['dellin:auto:terminal', 184_050]]);
      expect(JSON.stringify(lines)).toContain('no door rate');
    },
  );

  it.each([
    ['error-500.json', 500, 'carrier_error'],
    ['error-180003.json', 400, 'no_service'],
  ])('a door leg answered %s (HTTP %i) stops the whole quote: %s', async (name, status, kind) => {
    const fake = await fakeLegs(answerOf(name, status), answerOf('calc-auto-terminal.json'));
    expect(
      await adapterFor(fake.url).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    ).toMatchObject({ ok: false, kind });
  });

  it('a town without a terminal whose door address Dellin refuses is no service, not a carrier error', async () => {
    const fake = await fakeLegs(
      answerOf('error-unknown-validation.json', 400),
      answerOf('calc-auto-terminal.json'),
      '[]',
    );
    const out = await adapterFor(fake.url).quote(
      request({ city: 'Киров, Калужская обл', postalCode: null }),
      ctx(),
    );
    expect(out).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringContaining('door rate'),
    });
    expect(arrivalOf(fake.calls[0]!)).toMatchObject({ address: { search: 'Калужская область, Киров' } });
  });

  it('an appkey refusal on the door leg is a carrier error even as a 400 (DL10), never "no door rate"', async () => {
    const fake = await fakeLegs(
      answerOf('error-appkey-400.json', 400),
      answerOf('calc-auto-terminal.json'),
      '[]',
    );
    expect(
      await adapterFor(fake.url).quote(request({ city: 'Киров, Калужская обл', postalCode: null }), ctx()),
    ).toMatchObject({ ok: false, kind: 'carrier_error', detail: expect.stringContaining('appkey') });
  });

  it('against a simulator that refuses a street-less search: terminal rates stay, a town without one is no service', async () => {
    const s = await startDellinSimulator({ streetlessSearch: 'refuse' });
    sims.push(s);
    const a = adapterFor(s.url);
    const out = rates(await a.quote(request({ city: 'Казань', postalCode: '420000' }), ctx()));
    expect(out.map((r) => r.service_code)).toEqual(['dellin:auto:terminal']);
    expect(await a.quote(request({ city: 'Киров, Калужская обл', postalCode: null }), ctx())).toMatchObject({
      ok: false,
      kind: 'no_service',
    });
  });

  it('streetlessDoor "terminal_only": no door leg at all; a town without a terminal is no service, uncalled', async () => {
    const fake = await fakeLegs(
      answerOf('calc-auto-door-xylocode.json'),
      answerOf('calc-auto-terminal.json'),
    );
    const a = adapterFor(fake.url, { streetlessDoor: 'terminal_only' });
    const out = rates(await a.quote(request({ city: 'Казань', postalCode: '420000' }), ctx()));
    expect(out.map((r) => r.service_code)).toEqual(['dellin:auto:terminal']);
    expect(fake.calls.map(arrivalOf).map((x) => x.variant)).toEqual(['terminal']);
    const none = await fakeLegs(
      answerOf('calc-auto-door-xylocode.json'),
      answerOf('calc-auto-terminal.json'),
      '[]',
    );
    expect(
      await adapterFor(none.url, { streetlessDoor: 'terminal_only' }).quote(
        request({ city: 'Казань', postalCode: '420000' }),
        ctx(),
      ),
    ).toMatchObject({ ok: false, kind: 'no_service' });
    expect(none.calls).toHaveLength(0);
  });
});

describe('Dellin through /v1/rates (sandbox)', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      settings: { 'carriers.dellin.enabled': 'on', 'carriers.dellin.timeout_ms': '400' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  const body = (to: Record<string, unknown>, p: Record<string, number> = parcel) => ({
    from: { city: 'Москва', postal_code: '101000' },
    to,
    parcel: p,
    carriers: ['dellin'],
  });

  it('answers Dellin rates for the pallet at terminal rates, marked sandbox', async () => {
    const r = await t.postRates(body({ city: 'Новосибирск', postal_code: '630000' }, PALLET));
    expect(r.status).toBe(200);
    expect(r.headers['x-ratedesk-sandbox']).toBe('true');
    expect(r.json.rates.map((x: { service_code: string }) => x.service_code).sort()).toEqual([
      'dellin:auto:door',
      'dellin:auto:terminal',
    ]);
  });

  it.each([
    ['999941', 'timeout'],
    ['999942', 'carrier error: Dellin error 500000 Внутренняя ошибка сервера Повторите запрос позже'],
    ['999943', 'no service on this route'],
  ])('trigger %s → %s', async (postal, reason) => {
    const r = await t.postRates(body({ city: 'Казань', postal_code: postal }));
    expect(r.status).toBe(503);
    expect(r.json.unavailable).toEqual([{ carrier: 'dellin', reason }]);
  });

  it('another carrier’s trigger is an ordinary index for Dellin', async () => {
    const r = await t.postRates(body({ city: 'Казань', postal_code: '999932' }));
    expect(r.status).toBe(200);
  });
});
