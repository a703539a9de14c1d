// The DPD adapter against the DPD simulator and hand-made SOAP servers over real HTTP on 127.0.0.1, and DPD
// through /v1/rates in sandbox mode (switched on by settings), every trigger included.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDpdAdapter, type DpdAdapterOptions } from '../../../core/carriers/dpd';
import { DPD_SIM_DEFAULT_ACCOUNT, startDpdSimulator } from '../../../core/carriers/simulators/dpd';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
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
  const s = await startDpdSimulator();
  sims.push(s);
  return s;
}

const adapterFor = (baseUrl: string, over: Partial<DpdAdapterOptions> = {}) =>
  createDpdAdapter({ baseUrl, ...DPD_SIM_DEFAULT_ACCOUNT, ...over });

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
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

/** A SOAP endpoint answering every POST with `status` and `body`, counting calls. */
async function fakeDpd(status: number, body: string): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  const server = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services`, calls: () => calls };
}

/** A SOAP endpoint that answers by what the request body holds: the first matching [needle, status, body]. */
async function scriptedDpd(
  script: ReadonlyArray<readonly [RegExp, number, string]>,
): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      const [, status, answer] = script.find(([needle]) => needle.test(body)) ?? [/./, 500, 'no script'];
      res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(answer);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services`, bodies };
}

const fixture = (file: string): string =>
  readFileSync(join(__dirname, '../../fixtures/carriers/dpd', file), 'utf8');
const RATES = `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:getServiceCost2Response xmlns:ns2="http://dpd.ru/ws/calculator/2012-03-20"><return><serviceCode>CUR</serviceCode><serviceName>DPD CLASSIC</serviceName><cost>512.30</cost><days>2</days></return></ns2:getServiceCost2Response></S:Body></S:Envelope>`;

describe('DPD adapter ↔ simulator', () => {
  it('quotes door and pickup-point services with exact kopecks and 1–3 days', async () => {
    const s = await sim();
    const out = rates(
      await adapterFor(s.url).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
    );
    expect(out.map((r) => r.service_code).sort()).toEqual([
      'dpd:BZP:door',
      'dpd:CUR:door',
      'dpd:CUR:pickup',
      'dpd:NDY:door',
      'dpd:PCL:pickup',
    ]);
    for (const r of out) {
      expect(r).toMatchObject({ carrier: 'dpd', carrier_name: 'DPD', currency: 'RUB' });
      expect(Number.isInteger(r.price_kopecks)).toBe(true);
      expect(r.days_min).toBe(r.days_max);
      expect(r.days_min! >= 1 && r.days_min! <= 3).toBe(true);
    }
    expect(out.find((r) => r.service_code === 'dpd:CUR:pickup')!.delivery_type).toBe('pickup_point');
    // Express costs more than Classic on the same route.
    const by = new Map(out.map((r) => [r.service_code, r.price_kopecks]));
    expect(by.get('dpd:NDY:door')!).toBeGreaterThan(by.get('dpd:CUR:door')!);
    expect(s.requestCount()).toBe(2);
  });

  it('declared value goes to DPD in roubles and raises the price', async () => {
    const s = await sim();
    const a = adapterFor(s.url);
    const plain = rates(await a.quote(request({ city: 'Казань', postalCode: '420000' }), ctx()));
    const insured = rates(
      await a.quote(
        request({ city: 'Казань', postalCode: '420000' }, { declaredValueKopecks: 1_000_000 }),
        ctx(),
      ),
    );
    expect(insured[0]!.price_kopecks).toBeGreaterThan(plain[0]!.price_kopecks);
  });

  it('resolves an ambiguous name (Пушкино: a town and a village in one region) with the table, retries once, remembers it', async () => {
    const s = await sim();
    const a = adapterFor(s.url);
    const out = rates(await a.quote(request({ city: 'Пушкино', postalCode: null }), ctx()));
    expect(out.length).toBeGreaterThan(0);
    expect(s.requestCount()).toBe(4); // two faults with candidates, then the two calls with the chosen cityId
    rates(await a.quote(request({ city: 'Пушкино', postalCode: null }), ctx()));
    expect(s.requestCount()).toBe(6);
  });

  it('candidates without abbreviation or index range (Михайловка: a town and a village) are settled by the table’s index', async () => {
    const s = await sim();
    const a = adapterFor(s.url);
    const out = rates(await a.quote(request({ city: 'Михайловка', postalCode: null }), ctx()));
    expect(out.length).toBeGreaterThan(0);
    expect(s.requestCount()).toBe(4); // two faults with bare candidates, then the two calls by the town's index
    rates(await a.quote(request({ city: 'Михайловка', postalCode: null }), ctx()));
    expect(s.requestCount()).toBe(6);
  });

  it('a name the table cannot settle is "city not found"; with its region it is quoted', async () => {
    const s = await sim();
    const a = adapterFor(s.url);
    expect(await a.quote(request({ city: 'Кольцово', postalCode: null }), ctx())).toMatchObject({
      ok: false,
      kind: 'city_not_found',
    });
    rates(await a.quote(request({ city: 'Кольцово, Новосибирская обл', postalCode: null }), ctx()));
    expect(await a.quote(request({ city: 'Нигдевск', postalCode: null }), ctx())).toMatchObject({
      ok: false,
      kind: 'city_not_found',
    });
  });

  it('without credentials: not_configured and no call', async () => {
    const s = await sim();
    expect(
      await adapterFor(s.url, { clientKey: null }).quote(
        request({ city: 'Казань', postalCode: '420000' }),
        ctx(),
      ),
    ).toMatchObject({ ok: false, kind: 'not_configured' });
    expect(
      await adapterFor(s.url, { clientNumber: 'abc' }).quote(
        request({ city: 'Казань', postalCode: '420000' }),
        ctx(),
      ),
    ).toMatchObject({ ok: false, kind: 'not_configured' });
    expect(s.requestCount()).toBe(0);
  });

  it('a wrong key is a carrier error naming the credentials', async () => {
    const s = await sim();
    const out = await adapterFor(s.url, { clientKey: 'WRONG' }).quote(
      request({ city: 'Казань', postalCode: '420000' }),
      ctx(),
    );
    expect(out).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringContaining('rejected the credentials'),
    });
  });

  it('a contract in BYN is refused, not shown as roubles', async () => {
    const s = await sim();
    const out = await adapterFor(s.url, { contractCurrency: 'BYN' }).quote(
      request({ city: 'Казань', postalCode: '420000' }),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error', detail: expect.stringContaining('BYN') });
  });

  it('a proxy’s HTML error page or a truncated answer is a carrier error, never a throw', async () => {
    for (const [status, body] of [
      [502, '<html><body>Bad Gateway</body></html>'],
      [
        200,
        '<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><ns2:getServiceCost2Resp',
      ],
    ] as const) {
      const fake = await fakeDpd(status, body);
      expect(
        await adapterFor(fake.url).quote(request({ city: 'Казань', postalCode: '420000' }), ctx()),
      ).toMatchObject({ ok: false, kind: 'carrier_error' });
    }
  });

  it('DPD’s candidates without the optional fields (fixture): asked again by the table’s index, rates', async () => {
    const fake = await scriptedDpd([
      [/<index>141200<\/index>/, 200, RATES],
      [/<cityName>Пушкино<\/cityName>/, 500, fixture('fault2-candidates-without-optional-fields.xml')],
    ]);
    const out = rates(
      await adapterFor(fake.url).quote(request({ city: 'Пушкино', postalCode: null }), ctx()),
    );
    expect(out.map((r) => r.price_kopecks)).toEqual([51_230, 51_230]);
    expect(fake.bodies).toHaveLength(4);
    expect(fake.bodies.slice(2).every((b) => b.includes('<delivery><index>141200</index></delivery>'))).toBe(
      true,
    );
  });

  it('logs a bare fault with a text it does not know, and answers a carrier error in DPD’s words', async () => {
    const fake = await fakeDpd(500, fixture('fault-bare-unknown-text.xml'));
    const lines: [string, Record<string, unknown> | undefined][] = [];
    const logger: Logger = { info() {}, error() {}, warn: (m, f) => lines.push([m, f]) };
    const out = await adapterFor(fake.url, { logger }).quote(
      request({ city: 'Казань', postalCode: '420000' }),
      ctx(),
    );
    expect(out).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: 'DPD fault Расчет по заданным параметрам невозможен',
    });
    expect(lines[0]).toEqual([
      'DPD answered a fault RateDesk does not know',
      {
        faultcode: 'S:Server',
        message: 'Расчет по заданным параметрам невозможен',
        status: 500,
        outcome: 'carrier_error',
      },
    ]);
  });

  it('logs a fault code it does not know (never the key)', async () => {
    const fault = `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>Новая ошибка</faultstring><detail><ns2:ServiceCostFault2 xmlns:ns2="http://dpd.ru/ws/calculator/2012-03-20"><code>E-NEW</code><message>Новая ошибка</message></ns2:ServiceCostFault2></detail></S:Fault></S:Body></S:Envelope>`;
    const fake = await fakeDpd(500, fault);
    const lines: unknown[] = [];
    const logger: Logger = { info() {}, error() {}, warn: (m, f) => lines.push([m, f]) };
    const out = await adapterFor(fake.url, { logger }).quote(
      request({ city: 'Казань', postalCode: '420000' }),
      ctx(),
    );
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(JSON.stringify(lines)).toContain('E-NEW');
    expect(JSON.stringify(lines)).not.toContain(DPD_SIM_DEFAULT_ACCOUNT.clientKey);
  });
});

describe('DPD through /v1/rates (sandbox)', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({
      settings: { 'carriers.dpd.enabled': 'on', 'carriers.dpd.timeout_ms': '400' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  const body = (to: Record<string, unknown>, p: Record<string, number> = parcel) => ({
    from: { city: 'Москва', postal_code: '101000' },
    to,
    parcel: p,
    carriers: ['dpd'],
  });

  it('answers DPD rates, marked sandbox', async () => {
    const r = await t.postRates(body({ city: 'Казань', postal_code: '420000' }));
    expect(r.status).toBe(200);
    expect(r.headers['x-ratedesk-sandbox']).toBe('true');
    expect(r.json.rates.length).toBe(5);
    expect(
      r.json.rates.every(
        (x: { carrier: string; service_code: string }) =>
          x.carrier === 'dpd' && /^dpd:[A-Z]{3}:(door|pickup)$/.test(x.service_code),
      ),
    ).toBe(true);
  });

  it.each([
    ['999931', 'timeout'],
    ['999932', 'carrier error: DPD fault Internal Error'],
    ['999933', 'no service on this route'],
  ])('trigger %s → %s', async (postal, reason) => {
    const r = await t.postRates(body({ city: 'Казань', postal_code: postal }));
    expect(r.status).toBe(503);
    expect(r.json.unavailable).toEqual([{ carrier: 'dpd', reason }]);
  });

  it('another carrier’s trigger is an ordinary index for DPD', async () => {
    const r = await t.postRates(body({ city: 'Казань', postal_code: '999942' }));
    expect(r.status).toBe(200);
  });

  it('the 900 kg pallet exceeds DPD’s parcel limits, decided without a call', async () => {
    const r = await t.postRates(
      body(
        { city: 'Казань', postal_code: '420000' },
        { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 },
      ),
    );
    expect(r.status).toBe(422);
    expect(r.json.unavailable[0].reason).toMatch(
      /^parcel exceeds carrier limits: weight 900 kg over 31.5 kg/,
    );
  });
});
