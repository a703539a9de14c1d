// #21 keeps POST /v1/rates exactly the spec (../shared/spec/rating-service-v1.md): the clerk's fields are
// refused as unknown, and an answer carries only the spec's fields of a rate even though the core now adds
// fees, dates and customer prices to every rate (what /ext/v1/rates shows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIRST_TWO_CARRIERS,
  rawRequest,
  SHIPMENT,
  startTestService,
  type TestService,
} from '../../helpers/service';

/** The fields of a Rate in the spec (§2); days_min/days_max may be left out. */
const SPEC_RATE_FIELDS = [
  'carrier',
  'carrier_name',
  'service_code',
  'service_name',
  'delivery_type',
  'price_kopecks',
  'currency',
  'days_min',
  'days_max',
  'price_type',
];

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
});
afterAll(() => t.close());

describe('/v1/rates after #21', () => {
  it.each([
    ['cod_kopecks', { cod_kopecks: 100_000 }],
    ['places', { places: [{ ...SHIPMENT.parcel, count: 2 }] }],
    ['ship_date', { ship_date: '2031-03-05' }],
  ])('refuses %s with 400 validation_failed (unknown property), charging nothing', async (field, extra) => {
    const before = (await t.get('/v1/balance')).json.balance as number;
    const r = await t.postRates({ ...SHIPMENT, ...extra });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.json.error.details).toEqual([{ path: field, message: 'unknown property' }]);
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
  });

  it('answers with the spec’s fields only, where /ext/v1/rates answers the same shipment with more', async () => {
    const v1 = await t.postRates(SHIPMENT);
    expect(v1.status).toBe(200);
    expect(Object.keys(v1.json)).toEqual(['request_id', 'rates', 'unavailable', 'balance_remaining']);
    expect(v1.json.rates.length).toBeGreaterThan(0);
    for (const rate of v1.json.rates as Array<Record<string, unknown>>) {
      for (const k of Object.keys(rate)) expect(SPEC_RATE_FIELDS, k).toContain(k);
    }
    const ext = await rawRequest(t.port, {
      method: 'POST',
      path: '/ext/v1/rates',
      headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(SHIPMENT),
    });
    expect(ext.status).toBe(200);
    const extra = Object.keys(ext.json.rates[0] as object).filter((k) => !SPEC_RATE_FIELDS.includes(k));
    expect(extra).toEqual(
      expect.arrayContaining(['breakdown', 'delivery_date_min', 'customer_price_kopecks']),
    );
    // The same carriers and prices: one core path, /v1 cut back.
    const prices = (r: { json: { rates: Array<{ service_code: string; price_kopecks: number }> } }) =>
      r.json.rates.map((x) => `${x.service_code}:${x.price_kopecks}`);
    expect(prices(ext)).toEqual(prices(v1));
  });

  it('stores a /v1 call in history as before: the /v1 shipment and the /v1 body', async () => {
    const r = await t.postRates(SHIPMENT);
    const row = (await t.service.store.quotes.search('', 50, 0)).find(
      (q) => q.request_id === r.json.request_id,
    );
    expect(row?.result_json).toBe(r.text);
    expect(JSON.parse(row!.shipment_json)).toEqual({
      ...SHIPMENT,
      from: { country: 'RU', ...SHIPMENT.from },
      to: { country: 'RU', ...SHIPMENT.to },
      declared_value_kopecks: 0,
    });
    expect(row?.weight_grams).toBe(SHIPMENT.parcel.weight_grams);
  });
});
