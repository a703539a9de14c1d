// Adapter ↔ simulator over real HTTP on 127.0.0.1, plus small hand-made servers for what the simulator
// never does (captured URL shape, broken bodies).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRussianPostAdapter } from '../../../core/carriers/russian-post';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startRussianPostSimulator } from '../../../core/carriers/simulators/russian-post';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const NOW = () => new Date('2025-03-10T07:00:00Z');
const signal = () => AbortSignal.timeout(10_000);

function shipment(overrides: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: null },
    to: { city: 'Казань', postalCode: null },
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
    ...overrides,
  });
}

describe('Russian Post adapter against the simulator', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startRussianPostSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });
  const adapter = () => createRussianPostAdapter({ baseUrl: sim.url, now: NOW });

  it('quotes Москва → Казань 1200 g with one request per product', async () => {
    const before = sim.requestCount();
    const outcome = await adapter().quote(shipment(), { signal: signal() });
    expect(sim.requestCount() - before).toBe(5);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.rates.map((r) => r.service_code)).toEqual([
      'russian-post:27030',
      'russian-post:47030',
      'russian-post:23030',
      'russian-post:24030',
      'russian-post:7030',
    ]);
    for (const rate of outcome.rates) {
      expect(rate).toMatchObject({
        carrier: 'russian-post',
        carrier_name: 'Почта России',
        currency: 'RUB',
        price_type: 'public',
      });
      expect(Number.isInteger(rate.price_kopecks) && rate.price_kopecks > 0).toBe(true);
      expect(rate.days_min).toBeGreaterThan(0);
      expect(rate.days_max).toBeGreaterThanOrEqual(rate.days_min!);
    }
    const byCode = new Map(outcome.rates.map((r) => [r.service_code, r]));
    expect(byCode.get('russian-post:27030')).toMatchObject({
      service_name: 'Посылка стандарт',
      delivery_type: 'post_office',
    });
    expect(byCode.get('russian-post:7030')).toMatchObject({ service_name: 'EMS', delivery_type: 'door' });
    expect(byCode.get('russian-post:24030')?.delivery_type).toBe('door');
    expect(byCode.get('russian-post:7030')!.price_kopecks).toBeGreaterThan(
      byCode.get('russian-post:27030')!.price_kopecks,
    );
  });

  it('uses the "с ОЦ" products when there is a declared value, and they cost more', async () => {
    const plain = await adapter().quote(shipment(), { signal: signal() });
    const insured = await adapter().quote(shipment({ declaredValueKopecks: 500_000 }), { signal: signal() });
    if (!plain.ok || !insured.ok) throw new Error('expected rates');
    expect(insured.rates.map((r) => r.service_code)).toEqual([
      'russian-post:27020',
      'russian-post:47020',
      'russian-post:23020',
      'russian-post:24020',
      'russian-post:7020',
    ]);
    expect(insured.rates[0]!.service_name).toBe('Посылка стандарт с объявленной ценностью');
    insured.rates.forEach((r, i) => expect(r.price_kopecks).toBeGreaterThan(plain.rates[i]!.price_kopecks));
  });

  it('prefers a given postal code to the city table', async () => {
    const near = await adapter().quote(shipment({ to: { city: 'Химки', postalCode: '141402' } }), {
      signal: signal(),
    });
    const far = await adapter().quote(shipment({ to: { city: 'Химки', postalCode: '690000' } }), {
      signal: signal(),
    });
    if (!near.ok || !far.ok) throw new Error('expected rates');
    expect(far.rates[0]!.price_kopecks).toBeGreaterThan(near.rates[0]!.price_kopecks);
  });

  it('drops the products a weight exceeds, and has no service when it exceeds them all', async () => {
    const heavy = await adapter().quote(
      shipment({ parcel: { weight_grams: 12_000, length_cm: 30, width_cm: 20, height_cm: 10 } }),
      {
        signal: signal(),
      },
    );
    expect(heavy.ok && heavy.rates.map((r) => r.service_code)).toEqual([
      'russian-post:23030',
      'russian-post:24030',
      'russian-post:7030',
    ]);
    const tooHeavy = await adapter().quote(
      shipment({ parcel: { weight_grams: 40_000, length_cm: 30, width_cm: 20, height_cm: 10 } }),
      {
        signal: signal(),
      },
    );
    expect(tooHeavy).toMatchObject({
      ok: false,
      kind: 'no_service',
      detail: expect.stringContaining('1378'),
    });
  });

  it('reports the no-service sandbox trigger as no_service', async () => {
    const outcome = await adapter().quote(
      shipment({ to: { city: 'Тест', postalCode: CARRIER_TRIGGERS['russian-post'].noService } }),
      {
        signal: signal(),
      },
    );
    expect(outcome).toMatchObject({ ok: false, kind: 'no_service', detail: expect.stringContaining('1209') });
  });

  it('reports the error sandbox trigger as carrier_error', async () => {
    const outcome = await adapter().quote(
      shipment({ to: { city: 'Тест', postalCode: CARRIER_TRIGGERS['russian-post'].error } }),
      {
        signal: signal(),
      },
    );
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringContaining('5000'),
    });
  });

  it("still quotes when the recipient is another carrier's sandbox trigger", async () => {
    const outcome = await adapter().quote(
      shipment({ to: { city: 'Казань', postalCode: CARRIER_TRIGGERS.cdek.error } }),
      {
        signal: signal(),
      },
    );
    expect(outcome.ok && outcome.rates).toHaveLength(5);
  });

  it('an unknown city is city_not_found (#10), without calling the carrier', async () => {
    const before = sim.requestCount();
    const outcome = await adapter().quote(shipment({ to: { city: 'Нигдевск', postalCode: null } }), {
      signal: signal(),
    });
    expect(outcome).toEqual({ ok: false, kind: 'city_not_found', detail: 'Нигдевск' });
    const from = await adapter().quote(shipment({ from: { city: 'Нигдеград', postalCode: null } }), {
      signal: signal(),
    });
    expect(from).toEqual({ ok: false, kind: 'city_not_found', detail: 'Нигдеград' });
    // A town the table knows but lists without an index still needs one.
    const argun = await adapter().quote(shipment({ from: { city: 'Аргун', postalCode: null } }), {
      signal: signal(),
    });
    expect(argun).toEqual({ ok: false, kind: 'postal_code_required' });
    expect(sim.requestCount()).toBe(before);
    // With a postal code the city name does not matter.
    const withIndex = await adapter().quote(shipment({ to: { city: 'Нигдевск', postalCode: '630000' } }), {
      signal: signal(),
    });
    expect(withIndex.ok).toBe(true);
  });

  it('resolves short and Latin names to the main index', async () => {
    for (const [city, index] of [
      ['спб', '190000'],
      ['Saint Petersburg', '190000'],
      ['г. Москва', '101000'],
      ['Yekaterinburg', '620000'],
      ['Nizhny Novgorod', '603000'],
      ['нск', '630000'],
    ] as const) {
      const outcome = await adapter().quote(shipment({ to: { city, postalCode: null } }), {
        signal: signal(),
      });
      expect(outcome.ok, city).toBe(true);
      const direct = await adapter().quote(shipment({ to: { city: 'x', postalCode: index } }), {
        signal: signal(),
      });
      expect(outcome, city).toEqual(direct);
    }
  });

  it('treats an index the carrier does not know as no service', async () => {
    for (const postalCode of ['000000', '630099', '101001']) {
      // 630099 is a real-looking Novosibirsk index, but not one the simulator's directory lists: 1207.
      const outcome = await adapter().quote(shipment({ to: { city: 'Где-то', postalCode } }), {
        signal: signal(),
      });
      expect(outcome, postalCode).toMatchObject({
        ok: false,
        kind: 'no_service',
        detail: expect.stringContaining('1207'),
      });
    }
  });

  it('declares the published limits, and the simulator refuses what they exclude', async () => {
    const a = adapter();
    expect(a.limits).toMatchObject({ maxWeightGrams: 31_500, maxLengthCm: 150, maxSumOfSidesCm: 300 });
    expect(a.limits?.services?.['7030']).toMatchObject({ maxLengthPlusGirthCm: 300 });
    expect(a.limits?.services?.['27020']).toEqual(a.limits?.services?.['27030']);
    // 140 × 50 × 40: under 150 cm a side and 300 cm in all, but 320 cm length plus girth: EMS alone refuses.
    const long = await a.quote(
      shipment({ parcel: { weight_grams: 3000, length_cm: 140, width_cm: 50, height_cm: 40 } }),
      { signal: signal() },
    );
    expect(long.ok && long.rates.map((r) => r.service_code).sort()).toEqual([
      'russian-post:23030',
      'russian-post:24030',
      'russian-post:27030',
      'russian-post:47030',
    ]);
  });

  it('rejects promptly when the signal aborts while the carrier hangs', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = adapter().quote(
      shipment({ to: { city: 'Тест', postalCode: CARRIER_TRIGGERS['russian-post'].timeout } }),
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // The abort is the feature here; the margin is generous.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('does not call the carrier with an already aborted signal', async () => {
    const before = sim.requestCount();
    await expect(adapter().quote(shipment(), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(sim.requestCount()).toBe(before);
  });
});

/** A one-route server answering every request with `reply`, recording the request URLs. */
async function startFake(
  reply: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; urls: string[]; server: Server }> {
  const urls: string[] = [];
  const server = createServer((req, res) => {
    urls.push(req.url ?? '');
    reply(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, urls, server };
}

describe('Russian Post adapter on the wire', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });
  async function fake(reply: (req: IncomingMessage, res: ServerResponse) => void) {
    const f = await startFake(reply);
    servers.push(f.server);
    return f;
  }
  const okBody = (id: number) =>
    JSON.stringify({
      version_api: 2,
      version: '2.14.1.676',
      id,
      name: 'Посылка',
      paynds: 37800,
      delivery: { min: 5, max: 7 },
    });

  it('sends the parameters of the captured real request (§1.3)', async () => {
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(okBody(id));
    });
    const adapter = createRussianPostAdapter({ baseUrl: `${f.url}/`, now: NOW });
    const outcome = await adapter.quote(shipment({ declaredValueKopecks: 150_000 }), { signal: signal() });
    expect(outcome.ok).toBe(true);
    expect(f.urls).toHaveLength(5);

    // GET https://tariff.pochta.ru/v2/calculate/tariff/delivery?json=json&object=3000&from=344038&to=115162&weight=100&service=&errorcode=1&date=20221006&time=0230
    const captured = new URL(
      'https://tariff.pochta.ru/v2/calculate/tariff/delivery?json=json&object=3000&from=344038&to=115162&weight=100&service=&errorcode=1&date=20221006&time=0230',
    );
    const documented = new Set([
      'json',
      'object',
      'from',
      'to',
      'weight',
      'sumoc',
      'sumnp',
      'size',
      'pack',
      'service',
      'isavia',
      'date',
      'time',
      'errorcode',
      'closed',
      'dogovor',
    ]);
    for (const raw of f.urls) {
      const sent = new URL(raw, 'http://x');
      expect(sent.pathname).toBe(captured.pathname);
      expect(raw).toMatch(/^\/v2\/calculate\/tariff\/delivery\?json&/);
      for (const name of sent.searchParams.keys())
        expect(documented.has(name), `unknown parameter ${name}`).toBe(true);
      for (const name of captured.searchParams.keys()) {
        if (name !== 'service') expect(sent.searchParams.has(name), `missing ${name}`).toBe(true);
      }
      const p = sent.searchParams;
      expect(p.get('date')).toMatch(/^\d{8}$/);
      expect(p.get('time')).toMatch(/^\d{4}$/);
      expect(p.get('errorcode')).toBe('1');
      expect({
        from: p.get('from'),
        to: p.get('to'),
        weight: p.get('weight'),
        size: p.get('size'),
        pack: p.get('pack'),
        sumoc: p.get('sumoc'),
      }).toEqual({
        from: '101000',
        to: '420000',
        weight: '1200',
        size: '30x20x10',
        pack: '20',
        sumoc: '150000',
      });
    }
    expect(f.urls.map((u) => new URL(u, 'http://x').searchParams.get('object')).sort()).toEqual([
      '23020',
      '24020',
      '27020',
      '47020',
      '7020',
    ]);
  });

  it('leaves sumoc out without a declared value', async () => {
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(okBody(id));
    });
    await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), { signal: signal() });
    for (const raw of f.urls) expect(new URL(raw, 'http://x').searchParams.has('sumoc')).toBe(false);
  });

  it('turns a body that is not JSON into carrier_error', async () => {
    const f = await fake((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>Сервис недоступен</html>'),
    );
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringMatching(/not JSON/),
    });
  });

  it('turns a 502 into carrier_error', async () => {
    const f = await fake((_req, res) =>
      res.writeHead(502, { 'Content-Type': 'application/json' }).end('{"message":"bad gateway"}'),
    );
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome).toEqual({ ok: false, kind: 'carrier_error', detail: 'Russian Post answered HTTP 502' });
  });

  it('turns a dropped connection into carrier_error', async () => {
    const f = await fake((req) => req.socket.destroy());
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringMatching(/^Russian Post: network error/),
    });
  });

  it('asks for the products of the setting, each with its own declared-value variant', async () => {
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(okBody(id));
    });
    const adapter = createRussianPostAdapter({ baseUrl: f.url, now: NOW, objects: [4030, 7030, 3000] });
    const plain = await adapter.quote(shipment(), { signal: signal() });
    expect(plain.ok && plain.rates.map((r) => r.service_code).sort()).toEqual([
      'russian-post:3000',
      'russian-post:4030',
      'russian-post:7030',
    ]);
    f.urls.splice(0);
    await adapter.quote(shipment({ declaredValueKopecks: 5000 }), { signal: signal() });
    const sent = f.urls.map((u) => new URL(u, 'http://x').searchParams);
    expect(sent.map((p) => [p.get('object'), p.get('sumoc')]).sort()).toEqual([
      ['3000', null], // no "с ОЦ" variant: asked without the declared value
      ['4020', '5000'],
      ['7020', '5000'],
    ]);
  });

  it('keeps a price whose answer carries no delivery days (#10)', async () => {
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      const body = JSON.parse(okBody(id)) as Record<string, unknown>;
      // A route the carrier has no control term for: only a deadline, or no delivery at all.
      body.delivery = id === 7030 ? { deadline: '20250317T235900' } : undefined;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome.ok && outcome.rates).toHaveLength(5);
    expect(outcome.ok && outcome.rates.every((r) => r.days_min === null && r.days_max === null)).toBe(true);
  });

  it('1375, 1376, 1379 and 1450 are "no service"; a code it does not know is logged', async () => {
    const codes: Record<number, [number, string]> = {
      27030: [1375, 'Доставка не осуществляется'],
      47030: [1376, 'Услуга не оказывается при входном значении'],
      23030: [1379, 'Услуга не оказывается при значении, равным'],
      24030: [1450, 'Запрет доставки в определенную точку'],
      7030: [1450, 'Запрет доставки в определенную точку'],
    };
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      const [code, msg] = codes[id]!;
      res
        .writeHead(400, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ version_api: 2, version: '2.14.1.676', id, errors: [{ msg, code, type: 1 }] }));
    });
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome).toMatchObject({ ok: false, kind: 'no_service', detail: expect.stringContaining('1450') });

    codes[7030] = [1999, 'Новая ошибка'];
    const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const logger = {
      info() {},
      error() {},
      warn: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }),
    };
    const mixed = await createRussianPostAdapter({ baseUrl: f.url, now: NOW, logger }).quote(shipment(), {
      signal: signal(),
    });
    expect(mixed).toMatchObject({
      ok: false,
      kind: 'carrier_error',
      detail: expect.stringContaining('1999'),
    });
    expect(logged).toEqual([
      {
        message: 'Russian Post answered an error code RateDesk does not know',
        fields: { codes: [1999], object: 7030, status: 400 },
      },
    ]);
  });

  it('keeps the rates of the products that answered when another fails', async () => {
    const f = await fake((req, res) => {
      const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('object'));
      if (id === 7030)
        res
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end('{"errors":[{"code":5000,"msg":"Внутренняя ошибка"}]}');
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(okBody(id));
    });
    const outcome = await createRussianPostAdapter({ baseUrl: f.url, now: NOW }).quote(shipment(), {
      signal: signal(),
    });
    expect(outcome.ok && outcome.rates).toHaveLength(4);
  });
});
