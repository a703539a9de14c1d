// #21: several places, declared value and cash on delivery for CDEK — `packages[]` one per place, each tariff
// priced again by /calculator/tariff with the INSURANCE service, the parts read from delivery_sum / services[] /
// total_sum; on the wire of a hand-made server shaped like CDEK's answers, and against the simulator.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCdekAdapter } from '../../../core/carriers/cdek';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import { startCdekSimulator, type CdekSimulatorHandle } from '../../../core/carriers/simulators/cdek';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Новосибирск', postalCode: '630000' },
    parcel: BOX,
    declaredValueKopecks: 0,
    ...over,
  });
}

function ratesOf(outcome: CarrierOutcome): Map<string, CarrierRate> {
  if (!outcome.ok) throw new Error(`expected rates, got ${outcome.kind}`);
  return new Map(outcome.rates.map((r) => [r.service_code, r]));
}

/** A CDEK-like server: token, tarifflist (the captured pastebin shape), tariff (sdk2.0's Tariff DTO shape). */
async function fakeCdek(tariff: (body: Record<string, unknown>, res: ServerResponse) => void) {
  const bodies: { path: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/v2/oauth/token') return json(200, { access_token: 't', expires_in: 3599 });
      if (path === '/v2/location/cities') {
        bodies.push({ path: `${path}${new URL(req.url ?? '/', 'http://x').search}`, body: {} });
        return json(200, [{ code: 270, city: 'Новосибирск', payment_limit: -1 }]);
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push({ path, body });
      if (path === '/v2/calculator/tarifflist') {
        return json(200, {
          tariff_codes: [
            {
              tariff_code: 136,
              tariff_name: 'Посылка склад-склад',
              delivery_mode: 4,
              delivery_sum: 455.0,
              period_min: 3,
              period_max: 5,
            },
            {
              tariff_code: 137,
              tariff_name: 'Посылка склад-дверь',
              delivery_mode: 3,
              delivery_sum: 640.5,
              period_min: 3,
              period_max: 5,
            },
          ],
        });
      }
      if (path === '/v2/calculator/tariff') return tariff(body, res);
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  return { bodies, adapter: createCdekAdapter({ baseUrl: url, clientId: 'id', clientSecret: 'secret' }) };
}

describe('CDEK on the wire', () => {
  it('several places go as packages[], one per place, in grams and whole centimetres', async () => {
    const f = await fakeCdek((_b, res) => res.writeHead(500).end());
    const big = { weight_grams: 5000, length_cm: 40.2, width_cm: 30, height_cm: 20 };
    await f.adapter.quote(request({ places: [BOX, big, BOX] }), ctx());
    expect(f.bodies[0]).toMatchObject({
      path: '/v2/calculator/tarifflist',
      body: {
        packages: [
          { weight: 1200, length: 30, width: 20, height: 15 },
          { weight: 5000, length: 41, width: 30, height: 20 },
          { weight: 1200, length: 30, width: 20, height: 15 },
        ],
      },
    });
    // No declared value: no /calculator/tariff call.
    expect(f.bodies).toHaveLength(1);
  });

  it('a declared value asks /calculator/tariff per tariff with INSURANCE (roubles); the parts come from its answer', async () => {
    const f = await fakeCdek((body, res) => {
      const code = body.tariff_code as number;
      const delivery = code === 136 ? 455 : 640.5;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          delivery_sum: delivery,
          period_min: 3,
          period_max: 5,
          weight_calc: 1200,
          services: [{ code: 'INSURANCE', sum: 11.26 }],
          total_sum: delivery + 11.26,
          currency: 'RUB',
        }),
      );
    });
    const got = ratesOf(await f.adapter.quote(request({ declaredValueKopecks: 150_050 }), ctx()));
    const asked = f.bodies.filter((b) => b.path === '/v2/calculator/tariff').map((b) => b.body);
    expect(asked.map((b) => b.tariff_code).sort()).toEqual([136, 137]);
    expect(asked[0]).toMatchObject({
      type: 1,
      to_location: { postal_code: '630000' },
      packages: [{ weight: 1200 }],
      services: [{ code: 'INSURANCE', parameter: 1501 }],
    });
    expect(got.get('cdek:137')).toMatchObject({
      price_kopecks: 65_176,
      breakdown: { base_kopecks: 64_050, insurance_kopecks: 1_126, cod_fee_kopecks: 0 },
    });
    expect(got.get('cdek:137')?.options_not_priced).toBeUndefined();
  });

  it('a tariff CDEK will not price with insurance keeps its carriage price and says insurance is not quoted', async () => {
    const f = await fakeCdek((body, res) => {
      if (body.tariff_code === 136) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errors: [{ code: 'v2_bad_request', message: 'x' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          delivery_sum: 640.5,
          services: [{ code: 'INSURANCE', sum: 10 }],
          total_sum: 650.5,
        }),
      );
    });
    const got = ratesOf(await f.adapter.quote(request({ declaredValueKopecks: 100_000 }), ctx()));
    expect(got.get('cdek:136')).toMatchObject({
      price_kopecks: 45_500,
      breakdown: { base_kopecks: 45_500, insurance_kopecks: null },
      options_not_priced: [expect.objectContaining({ option: 'insurance', reason: 'not_quoted' })],
    });
    expect(got.get('cdek:137')?.price_kopecks).toBe(65_050);
  });

  it('cash on delivery: never sent (no calculator field), and every rate says its fee is not quoted', async () => {
    const f = await fakeCdek((_b, res) => res.writeHead(500).end());
    const got = ratesOf(await f.adapter.quote(request({ codKopecks: 987_654 }), ctx()));
    expect(JSON.stringify(f.bodies)).not.toMatch(/9876/);
    // The recipient town's COD ceiling is asked (-1: none), by its postal code.
    expect(f.bodies.map((b) => b.path)).toContain(
      '/v2/location/cities?postal_code=630000&country_codes=RU&size=1',
    );
    for (const rate of got.values()) {
      expect(rate.breakdown).toEqual({
        base_kopecks: rate.price_kopecks,
        insurance_kopecks: 0,
        cod_fee_kopecks: null,
      });
      expect(rate.options_not_priced).toEqual([
        expect.objectContaining({ option: 'cod', reason: 'not_quoted' }),
      ]);
    }
  });
});

describe('CDEK simulator prices places and insurance', () => {
  async function sim(): Promise<CdekSimulatorHandle> {
    const s = await startCdekSimulator();
    closers.push(() => s.close());
    return s;
  }
  const adapterFor = (s: CdekSimulatorHandle) =>
    createCdekAdapter({
      baseUrl: s.url,
      clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
      clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
    });

  it('two places cost more than one; insurance is 0.75 % of the declared value inside total_sum', async () => {
    const s = await sim();
    const one = ratesOf(await adapterFor(s).quote(request(), ctx()));
    const two = ratesOf(await adapterFor(s).quote(request({ places: [BOX, BOX] }), ctx()));
    expect(two.get('cdek:136')!.price_kopecks).toBeGreaterThan(one.get('cdek:136')!.price_kopecks);
    const insured = ratesOf(await adapterFor(s).quote(request({ declaredValueKopecks: 200_000 }), ctx()));
    const rate = insured.get('cdek:136')!;
    expect(rate.breakdown).toEqual({
      base_kopecks: one.get('cdek:136')!.price_kopecks,
      insurance_kopecks: 1_500,
      cod_fee_kopecks: 0,
    });
    expect(rate.price_kopecks).toBe(rate.breakdown!.base_kopecks! + 1_500);
  });

  it("COD over the recipient town's payment_limit is not offered; within it, or in a town without one, not quoted", async () => {
    const s = await sim();
    const to = (city: string, postalCode: string) => ({ to: { city, postalCode } });
    const sirius = ratesOf(
      await adapterFor(s).quote(request({ ...to('Сириус', '354340'), codKopecks: 10_000 }), ctx()),
    );
    for (const rate of sirius.values()) {
      expect(rate.options_not_priced).toEqual([
        expect.objectContaining({
          option: 'cod',
          reason: 'not_offered',
          detail: expect.stringContaining('payment_limit 0'),
        }),
      ]);
      expect(rate.breakdown?.cod_fee_kopecks).toBe(0);
    }
    const over = ratesOf(
      await adapterFor(s).quote(request({ ...to('Кольцово', '630559'), codKopecks: 3_000_001 }), ctx()),
    );
    expect([...over.values()][0]!.options_not_priced).toEqual([
      expect.objectContaining({ option: 'cod', reason: 'not_offered' }),
    ]);
    const within = ratesOf(
      await adapterFor(s).quote(request({ ...to('Кольцово', '630559'), codKopecks: 3_000_000 }), ctx()),
    );
    expect([...within.values()][0]!.options_not_priced).toEqual([
      expect.objectContaining({ option: 'cod', reason: 'not_quoted' }),
    ]);
    const city = ratesOf(await adapterFor(s).quote(request({ codKopecks: 99_000_000 }), ctx()));
    expect([...city.values()][0]!.options_not_priced?.[0]?.reason).toBe('not_quoted');
  });

  it('refuses a /calculator/tariff body CDEK refuses: no tariff_code, an unknown service', async () => {
    const s = await sim();
    const token = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP&client_secret=RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const post = (body: unknown) =>
      fetch(`${s.url}/calculator/tariff`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as { errors?: { code: string }[] } }));
    const base = {
      type: 1,
      from_location: { postal_code: '101000', country_code: 'RU' },
      to_location: { postal_code: '630000', country_code: 'RU' },
      packages: [{ weight: 1200, length: 30, width: 20, height: 15 }],
    };
    expect((await post(base)).json.errors?.[0]?.code).toBe('v2_field_is_empty');
    expect(
      (await post({ ...base, tariff_code: 136, services: [{ code: 'CASH', parameter: 1 }] })).status,
    ).toBe(400);
    expect(
      (await post({ ...base, tariff_code: 136, services: [{ code: 'INSURANCE', parameter: -1 }] })).status,
    ).toBe(400);
    expect(
      (await post({ ...base, tariff_code: 136, services: [{ code: 'INSURANCE', parameter: 1000 }] })).status,
    ).toBe(200);
  });
});
