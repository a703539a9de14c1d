// #21: several places, declared value and cash on delivery for DPD — getServiceCost2 for one place,
// getServiceCostByParcels2 with parcel[]{weight kg, length/width/height cm, quantity} for several, declaredValue in
// roubles, COD never priced; on the wire of a hand-made SOAP server and priced by the simulator.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { createDpdAdapter } from '../../../core/carriers/dpd';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import { DPD_SIM_DEFAULT_ACCOUNT, startDpdSimulator } from '../../../core/carriers/simulators/dpd';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

const request = (over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest =>
  makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to: { city: 'Казань', postalCode: '420000' },
    parcel: BOX,
    declaredValueKopecks: 0,
    ...over,
  });

function byCode(out: CarrierOutcome): Map<string, CarrierRate> {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return new Map(out.rates.map((r) => [r.service_code, r]));
}

const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false });

describe('DPD on the wire', () => {
  async function fake() {
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        bodies.push(text);
        const op = text.includes('getServiceCostByParcels2') ? 'getServiceCostByParcels2' : 'getServiceCost2';
        res
          .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
          .end(
            `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>` +
              `<ns2:${op}Response xmlns:ns2="http://dpd.ru/ws/calculator/2012-03-20">` +
              `<return><serviceCode>CUR</serviceCode><serviceName>DPD CLASSIC domestic</serviceName><cost>1024.10</cost><days>4</days></return>` +
              `</ns2:${op}Response></S:Body></S:Envelope>`,
          );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services`;
    return {
      bodies,
      adapter: createDpdAdapter({ baseUrl: url, clientNumber: '1000000000', clientKey: 'K' }),
    };
  }

  it('several places go to getServiceCostByParcels2: identical boxes as one parcel with its quantity, kg and cm', async () => {
    const f = await fake();
    const big = { weight_grams: 5250, length_cm: 40.2, width_cm: 30, height_cm: 20 };
    const got = byCode(
      await f.adapter.quote(request({ places: [BOX, big, BOX], declaredValueKopecks: 150_050 }), ctx()),
    );
    const body = xml.parse(f.bodies[0]!) as {
      Envelope: { Body: { getServiceCostByParcels2: { request: Record<string, unknown> } } };
    };
    const req = body.Envelope.Body.getServiceCostByParcels2.request;
    expect(Object.keys(req)).toEqual([
      'auth',
      'pickup',
      'delivery',
      'selfPickup',
      'selfDelivery',
      'declaredValue',
      'parcel',
    ]);
    expect(req.declaredValue).toBe('1500.5');
    expect(req.parcel).toEqual([
      { weight: '1.2', length: '30', width: '20', height: '10', quantity: '2' },
      { weight: '5.25', length: '41', width: '30', height: '20', quantity: '1' },
    ]);
    expect(req.weight).toBeUndefined();
    // The declared-value fee is inside DPD's one `cost`: not given apart.
    expect(got.get('dpd:CUR:door')).toMatchObject({
      price_kopecks: 102_410,
      breakdown: { base_kopecks: null, insurance_kopecks: null, cod_fee_kopecks: 0 },
    });
  });

  it('one place stays getServiceCost2; COD is never sent and every rate says its fee is not quoted', async () => {
    const f = await fake();
    const got = byCode(await f.adapter.quote(request({ codKopecks: 987_654 }), ctx()));
    expect(f.bodies[0]).toContain('getServiceCost2>');
    expect(f.bodies[0]).not.toContain('ByParcels');
    expect(f.bodies.join('')).not.toMatch(/9876/);
    expect(got.get('dpd:CUR:door')).toMatchObject({
      breakdown: { base_kopecks: 102_410, insurance_kopecks: 0, cod_fee_kopecks: null },
      options_not_priced: [expect.objectContaining({ option: 'cod', reason: 'not_quoted' })],
    });
  });
});

describe('DPD simulator prices parcels and declared value', () => {
  async function sim() {
    const s = await startDpdSimulator();
    closers.push(() => s.close());
    return createDpdAdapter({ baseUrl: s.url, ...DPD_SIM_DEFAULT_ACCOUNT });
  }

  it('two places cost more than one, a declared value adds its fee, a place over the limits leaves nothing', async () => {
    const adapter = await sim();
    const one = byCode(await adapter.quote(request(), ctx())).get('dpd:CUR:door')!;
    const two = byCode(await adapter.quote(request({ places: [BOX, BOX] }), ctx())).get('dpd:CUR:door')!;
    expect(two.price_kopecks).toBeGreaterThan(one.price_kopecks);
    const insured = byCode(
      await adapter.quote(request({ places: [BOX, BOX], declaredValueKopecks: 200_000 }), ctx()),
    );
    expect(insured.get('dpd:CUR:door')!.price_kopecks).toBe(two.price_kopecks + 1_000);
    // 180 cm is over DPD's 175 cm longest side: the by-parcels call carries sides, so the simulator judges them.
    const long = await adapter.quote(request({ places: [BOX, { ...BOX, length_cm: 180 }] }), ctx());
    expect(long).toMatchObject({ ok: false, kind: 'no_service' });
  });
});
