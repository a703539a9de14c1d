// #21: cash on delivery, declared value and several places for Russian Post — the request in the carrier's own
// fields (`sumoc`, `sumnp`, the "с ОЦ" / "с ОЦ и НП" object codes, one item per place), checked on the wire
// of a hand-made server, and priced by the simulator end to end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRussianPostAdapter } from '../../../core/carriers/russian-post';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startRussianPostSimulator } from '../../../core/carriers/simulators/russian-post';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const NOW = () => new Date('2025-03-10T07:00:00Z');
const signal = () => AbortSignal.timeout(10_000);
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

function shipment(overrides: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel: BOX,
    declaredValueKopecks: 0,
    ...overrides,
  });
}

function rates(outcome: Awaited<ReturnType<ReturnType<typeof createRussianPostAdapter>['quote']>>) {
  if (!outcome.ok)
    throw new Error(`expected rates, got ${outcome.kind} ${'detail' in outcome ? outcome.detail : ''}`);
  return new Map<string, CarrierRate>(outcome.rates.map((r) => [r.service_code, r]));
}

describe('Russian Post on the wire: sumoc, sumnp, object codes, one item per place', () => {
  let server: Server;
  let url = '';
  const seen: URLSearchParams[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      seen.push(q);
      const id = Number(q.get('object'));
      const ground = 30_000 + Number(q.get('weight'));
      const cover = q.has('sumoc') ? Math.round(Number(q.get('sumoc')) * 0.04) : 0;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          version_api: 2,
          id,
          name: `Объект ${id}`,
          ground: { val: ground, valnds: ground },
          ...(cover > 0 ? { cover: { val: cover, valnds: cover } } : {}),
          paynds: ground + cover,
          delivery: { min: 3, max: 5 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const adapter = () => createRussianPostAdapter({ baseUrl: url, now: NOW, objects: [27030] });

  it('COD asks for the "с ОЦ и НП" code with sumnp, and raises sumoc to the COD amount (declared value ≥ COD)', async () => {
    seen.length = 0;
    const got = rates(
      await adapter().quote(shipment({ declaredValueKopecks: 100_000, codKopecks: 250_000 }), {
        signal: signal(),
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.get('object')).toBe('27040');
    expect(seen[0]!.get('sumoc')).toBe('250000');
    expect(seen[0]!.get('sumnp')).toBe('250000');
    expect(got.get('russian-post:27040')).toMatchObject({
      price_kopecks: 31_200 + 10_000,
      breakdown: { base_kopecks: 31_200, insurance_kopecks: 10_000, cod_fee_kopecks: null },
      insured_value_kopecks: 250_000,
      options_not_priced: [{ option: 'cod', reason: 'not_quoted' }],
    });
  });

  it('a declared value alone asks for the "с ОЦ" code with sumoc and no sumnp', async () => {
    seen.length = 0;
    const got = rates(
      await adapter().quote(shipment({ declaredValueKopecks: 100_000 }), { signal: signal() }),
    );
    expect(seen[0]!.get('object')).toBe('27020');
    expect(seen[0]!.get('sumoc')).toBe('100000');
    expect(seen[0]!.has('sumnp')).toBe(false);
    const rate = got.get('russian-post:27020')!;
    expect(rate.breakdown).toEqual({ base_kopecks: 31_200, insurance_kopecks: 4_000, cod_fee_kopecks: 0 });
    expect(rate.options_not_priced).toBeUndefined();
    expect(rate.insured_value_kopecks).toBeUndefined();
  });

  it('several places: one item per place, the amounts shared out, the prices summed; identical items asked once', async () => {
    seen.length = 0;
    const heavy = { ...BOX, weight_grams: 3000 };
    const got = rates(
      await adapter().quote(
        shipment({ places: [BOX, BOX, heavy], declaredValueKopecks: 90_001, codKopecks: 30_000 }),
        { signal: signal() },
      ),
    );
    // Declared value raised? No: 90 001 ≥ 30 000. Shares: 30 001 / 30 000 / 30 000 and 10 000 each.
    const asked = seen.map((q) => [q.get('weight'), q.get('sumoc'), q.get('sumnp')]);
    expect(asked).toEqual(
      expect.arrayContaining([
        ['1200', '30001', '10000'],
        ['1200', '30000', '10000'],
        ['3000', '30000', '10000'],
      ]),
    );
    expect(asked).toHaveLength(3);
    const rate = got.get('russian-post:27040')!;
    const base = 31_200 + 31_200 + 33_000;
    const cover = 1_200 + 1_200 + 1_200;
    expect(rate.price_kopecks).toBe(base + cover);
    expect(rate.breakdown).toEqual({ base_kopecks: base, insurance_kopecks: cover, cod_fee_kopecks: null });
    expect(rate.insured_value_kopecks).toBeUndefined();

    seen.length = 0;
    await adapter().quote(shipment({ places: [BOX, BOX, BOX, BOX] }), { signal: signal() });
    expect(seen).toHaveLength(1);
  });

  it('a product without an "с ОЦ и НП" variant is still quoted, saying COD is not offered', async () => {
    seen.length = 0;
    const a = createRussianPostAdapter({ baseUrl: url, now: NOW, objects: [3000] });
    const got = rates(await a.quote(shipment({ codKopecks: 50_000 }), { signal: signal() }));
    expect(seen[0]!.get('object')).toBe('3000');
    expect(seen[0]!.has('sumnp')).toBe(false);
    expect(got.get('russian-post:3000')?.options_not_priced).toEqual([
      expect.objectContaining({ option: 'cod', reason: 'not_offered' }),
    ]);
  });
});

describe('Russian Post simulator prices COD, declared value and places', () => {
  let sim: SimulatorHandle;
  beforeAll(async () => {
    sim = await startRussianPostSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });
  const adapter = () => createRussianPostAdapter({ baseUrl: sim.url, now: NOW });

  it('"с ОЦ и НП" products with the declared-value fee in cover; two places cost the sum of their items', async () => {
    const one = rates(await adapter().quote(shipment({ codKopecks: 200_000 }), { signal: signal() }));
    expect([...one.keys()]).toEqual([
      'russian-post:27040',
      'russian-post:47040',
      'russian-post:23040',
      'russian-post:24040',
      'russian-post:7040',
    ]);
    const std = one.get('russian-post:27040')!;
    expect(std.insured_value_kopecks).toBe(200_000);
    expect(std.breakdown!.insurance_kopecks).toBe(Math.round(8_000 * 1.22));
    expect(std.price_kopecks).toBe(std.breakdown!.base_kopecks! + std.breakdown!.insurance_kopecks!);
    expect(std.service_name).toBe('Посылка стандарт с объявленной ценностью и наложенным платежом');

    const two = rates(
      await adapter().quote(shipment({ places: [BOX, BOX], codKopecks: 200_000 }), { signal: signal() }),
    );
    // Two items of 1 000 ₽ each: twice the carriage, the same 4 % of the whole declared value.
    const pair = two.get('russian-post:27040')!;
    expect(pair.breakdown!.base_kopecks).toBe(2 * std.breakdown!.base_kopecks!);
    expect(pair.breakdown!.insurance_kopecks).toBe(std.breakdown!.insurance_kopecks);
  });

  it('an item over a product limit takes that product away from the whole shipment', async () => {
    const got = rates(
      await adapter().quote(shipment({ places: [BOX, { ...BOX, weight_grams: 8_000 }] }), {
        signal: signal(),
      }),
    );
    // 47030 (Посылка 1 класса) takes 5 kg: the 8 kg place rules it out; 27030 takes 10 kg.
    expect(got.has('russian-post:47030')).toBe(false);
    expect(got.has('russian-post:27030')).toBe(true);
  });
});
