// #21: several places, declared value and cash on delivery for Boxberry — `BoxSizes[]` one per place, `OrderSum`
// and `PaySum` in roubles, the fees read from PriceBase / TotalPrice; on the wire of a hand-made server and
// priced by the simulator.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBoxberryAdapter } from '../../../core/carriers/boxberry';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import {
  startBoxberrySimulator,
  type BoxberrySimulatorHandle,
} from '../../../core/carriers/simulators/boxberry';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const TOKEN = 'test-token';
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const ctx = () => ({ signal: AbortSignal.timeout(20_000) });
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

function request(over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel: BOX,
    declaredValueKopecks: 0,
    ...over,
  });
}

function byCode(out: CarrierOutcome): Map<string, CarrierRate> {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return new Map(out.rates.map((r) => [r.service_code, r]));
}

describe('Boxberry on the wire', () => {
  it('sends every place in BoxSizes, OrderSum and PaySum in roubles; PriceService is the one option asked', async () => {
    const bodies: Record<string, unknown>[] = [];
    const server: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const method = url.searchParams.get('method');
        res.writeHead(200, { 'content-type': 'application/json' });
        if (method === 'ListCitiesFull')
          return res.end(
            JSON.stringify([
              { Code: '68', Name: 'Москва', Region: 'Москва', Kladr: '7700000000000', Reception: 1 },
              { Code: '45', Name: 'Казань', Region: 'Татарстан', Kladr: '1600000100000', Reception: 1 },
            ]),
          );
        if (method === 'ZipCheck') return res.end(JSON.stringify([{ ExpressDelivery: 1 }]));
        const body = JSON.parse(text) as Record<string, unknown>;
        bodies.push(body);
        // The gwinn fixture's figures (tests/Response/deliveryCalculation.json).
        return res.end(
          JSON.stringify({
            error: false,
            result: {
              DeliveryCosts: [
                {
                  PriceService: 166.5,
                  TotalPrice: 481.5,
                  PriceBase: 315,
                  DeliveryTypeId: body.DeliveryType,
                  DeliveryPeriod: 3,
                },
              ],
            },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
    const adapter = createBoxberryAdapter({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/json.php`,
      token: TOKEN,
    });
    const big = { weight_grams: 4000, length_cm: 50, width_cm: 40, height_cm: 30 };
    const cod = byCode(await adapter.quote(request({ places: [BOX, big], codKopecks: 250_050 }), ctx()));
    expect(bodies[0]).toMatchObject({
      OrderSum: 0,
      PaySum: 2500.5,
      BoxSizes: [
        { Width: 20, Height: 10, Depth: 30, Weight: 1200 },
        { Width: 40, Height: 30, Depth: 50, Weight: 4000 },
      ],
    });
    expect(cod.get('boxberry:1')).toMatchObject({
      price_kopecks: 48_150,
      breakdown: { base_kopecks: 31_500, insurance_kopecks: 0, cod_fee_kopecks: 16_650 },
    });

    bodies.length = 0;
    const both = byCode(
      await adapter.quote(request({ declaredValueKopecks: 300_000, codKopecks: 250_000 }), ctx()),
    );
    expect(bodies[0]).toMatchObject({ OrderSum: 3000, PaySum: 2500 });
    expect(both.get('boxberry:2')?.breakdown).toEqual({
      base_kopecks: 31_500,
      insurance_kopecks: null,
      cod_fee_kopecks: null,
    });
    expect(both.get('boxberry:2')?.options_not_priced).toBeUndefined();
  });
});

describe('Boxberry simulator prices places, declared value and COD', () => {
  async function sim(): Promise<BoxberrySimulatorHandle> {
    const s = await startBoxberrySimulator({ token: TOKEN });
    closers.push(() => s.close());
    return s;
  }

  it('PriceService carries 0.5 % of OrderSum and 1.5 % of PaySum; two places cost more than one', async () => {
    const s = await sim();
    const adapter = createBoxberryAdapter({ baseUrl: s.url, token: TOKEN });
    const plain = byCode(await adapter.quote(request(), ctx()));
    const insured = byCode(await adapter.quote(request({ declaredValueKopecks: 200_000 }), ctx()));
    const cod = byCode(await adapter.quote(request({ codKopecks: 200_000 }), ctx()));
    const two = byCode(await adapter.quote(request({ places: [BOX, BOX] }), ctx()));
    const base = plain.get('boxberry:1')!.price_kopecks;
    expect(insured.get('boxberry:1')!.breakdown).toEqual({
      base_kopecks: base,
      insurance_kopecks: 1_000,
      cod_fee_kopecks: 0,
    });
    expect(cod.get('boxberry:1')!.breakdown).toEqual({
      base_kopecks: base,
      insurance_kopecks: 0,
      cod_fee_kopecks: 3_000,
    });
    expect(cod.get('boxberry:1')!.price_kopecks).toBe(base + 3_000);
    expect(two.get('boxberry:1')!.price_kopecks).toBeGreaterThan(base);
  });

  it('refuses what Boxberry refuses in any place: fractions, a place over its guards leaves no variant', async () => {
    const s = await sim();
    const post = (body: unknown) =>
      fetch(s.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const base = {
      token: TOKEN,
      method: 'DeliveryCalculation',
      SenderCityId: '68',
      RecipientCityId: '68',
      DeliveryType: 1,
      OrderSum: 0,
      PaySum: 0,
    };
    const fraction = await post({ ...base, BoxSizes: [{ Weight: 1000 }, { Weight: 10.5 }] });
    expect(String(fraction.message ?? fraction.err)).toContain('целыми числами');
    const badPay = await post({ ...base, PaySum: 1.005, BoxSizes: [{ Weight: 1000 }] });
    expect(badPay).toMatchObject({ error: true });
    const heavy = await post({ ...base, BoxSizes: [{ Weight: 1000 }, { Weight: 32_000 }] });
    expect(heavy).toMatchObject({ error: false, result: { DeliveryCosts: [] } });
  });
});
