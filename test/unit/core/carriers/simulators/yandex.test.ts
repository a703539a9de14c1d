// The Yandex simulator refuses what Yandex refuses: no or wrong Bearer token (401 "Access denied"), missing or
// mistyped fields (400 validation_error), unknown stations, addresses without a street ("Cannot parse
// destination info"), over-limit parcels and sources taking no drop-offs (404, as Yandex's errors page has
// them); it answers prices as "<number> RUB" strings, and big towns' pickup lists at the real size, filtered
// by the request's window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../../../../core/carriers/simulators/handle';
import {
  formatRoubles,
  startYandexSimulator,
  YANDEX_SIM_TOKEN,
  YANDEX_TEST_STATION,
} from '../../../../../core/carriers/simulators/yandex';
import { MAX_CARRIER_RESPONSE_BYTES } from '../../../../../core/carriers/http';
import { pointListBody, pointWindow } from '../../../../../core/carriers/yandex/points';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startYandexSimulator();
});
afterAll(() => sim.close());

async function post(path: string, body: unknown, token: string | null = YANDEX_SIM_TOKEN) {
  const res = await fetch(`${sim.url}/api/b2b/platform${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  const json = JSON.parse(text) as Record<string, any>;
  return { status: res.status, bytes: Buffer.byteLength(text), json };
}

const door = (over: Record<string, unknown> = {}) => ({
  source: { platform_station_id: YANDEX_TEST_STATION },
  destination: { address: '420111, Казань, улица Баумана, 19' },
  tariff: 'time_interval',
  total_weight: 1200,
  total_assessed_price: 0,
  client_price: 0,
  payment_method: 'already_paid',
  places: [{ physical_dims: { weight_gross: 1200, dx: 30, dy: 15, dz: 20 } }],
  ...over,
});

describe('Yandex simulator', () => {
  it('checks the Bearer token', async () => {
    expect(await post('/pricing-calculator', door(), null)).toMatchObject({
      status: 401,
      json: { code: 'unauthorized', message: 'Access denied' },
    });
    expect((await post('/pricing-calculator', door(), 'y2_wrong')).status).toBe(401);
  });

  it('prices as "<number> RUB" with one day or two', async () => {
    const r = await post('/pricing-calculator', door());
    expect(r.status).toBe(200);
    expect(r.json.pricing_total).toMatch(/^\d+(\.\d{1,2})? RUB$/);
    expect([1, 2]).toContain(r.json.delivery_days);
  });

  it('refuses bad input with 400 validation_error', async () => {
    for (const body of [
      door({ tariff: 'express' }),
      door({ total_weight: 1.5 }),
      door({ source: {} }),
      door({ source: { platform_station_id: 'unknown' } }),
      door({ destination: { address: 'Нигдевск' } }),
      door({ tariff: 'self_pickup' }),
      door({ places: [{ physical_dims: { weight_gross: 1200, dx: 30.5, dy: 15, dz: 20 } }] }),
    ]) {
      const r = await post('/pricing-calculator', body);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('validation_error');
    }
  });

  it("refuses parcels over its limits with 404, as Yandex's errors page has it", async () => {
    const big = door({ places: [{ physical_dims: { weight_gross: 1200, dx: 80, dy: 15, dz: 20 } }] });
    expect(await post('/pricing-calculator', big)).toMatchObject({
      status: 404,
      json: { code: '404', message: 'Dimensions should not exceed limit' },
    });
    const heavy = door({ total_weight: 40_000 });
    expect((await post('/pricing-calculator', heavy)).status).toBe(404);
  });

  it('refuses a door address without a street, but a trigger index still reaches its behaviour', async () => {
    const town = door({ destination: { address: '420000, Республика Татарстан, Казань' } });
    expect(await post('/pricing-calculator', town)).toMatchObject({
      status: 400,
      json: { code: 'validation_error', message: 'Cannot parse destination info' },
    });
    const street = door({ destination: { address: 'Москва, Тверская 1' } });
    expect((await post('/pricing-calculator', street)).status).toBe(200);
    const trigger = door({ destination: { address: '999963, Республика Татарстан, Казань' } });
    expect(await post('/pricing-calculator', trigger)).toMatchObject({
      status: 404,
      json: { code: 'no_delivery_options' },
    });
  });

  it('a source station that takes no drop-offs is 404 "No dropoff available"; an unknown one 400', async () => {
    const points = (await post('/pickup-points/list', { geo_id: 43 })).json.points as Array<{
      id: string;
      available_for_dropoff: boolean;
    }>;
    const noDropoff = points.find((p) => !p.available_for_dropoff)!;
    expect(
      await post('/pricing-calculator', door({ source: { platform_station_id: noDropoff.id } })),
    ).toMatchObject({ status: 404, json: { message: 'No dropoff available' } });
    expect(
      await post('/pricing-calculator', door({ source: { platform_station_id: 'f'.repeat(32) } })),
    ).toMatchObject({ status: 400, json: { message: 'Cant get station id for point' } });
  });

  it('lists a big town at the real size: thousands of captured-shape points, far over the 1 MiB cap', async () => {
    const all = await post('/pickup-points/list', { geo_id: 213 });
    expect(all.status).toBe(200);
    expect(all.json.points.length).toBeGreaterThan(4_000);
    expect(all.bytes).toBeGreaterThan(5 * MAX_CARRIER_RESPONSE_BYTES);
    const point = all.json.points[1] as Record<string, unknown>;
    // The fields of the live capture (3p ids 57374111878, 57384569655).
    expect(Object.keys(point)).toEqual([
      'id',
      'operator_station_id',
      'operator_id',
      'name',
      'type',
      'position',
      'address',
      'instruction',
      'payment_methods',
      'contact',
      'schedule',
      'is_yandex_branded',
      'is_market_partner',
      'is_dark_store',
      'is_post_office',
      'dayoffs',
      'deactivation_date',
      'deactivation_date_predicted_debt',
      'available_for_dropoff',
      'available_for_c2c_dropoff',
      'pickup_services',
    ]);
    expect(point.id).toMatch(/^[0-9a-f]{32}$/);
    expect((point.schedule as { restrictions: unknown[] }).restrictions).toHaveLength(7);
    expect(all.bytes / all.json.points.length).toBeGreaterThan(1_500);
    const spb = await post('/pickup-points/list', { geo_id: 2, type: 'pickup_point' });
    expect(spb.json.points.length).toBeGreaterThan(1_500);
  });

  it('honours the latitude/longitude window the adapter sends, with geo_id or without', async () => {
    const window = pointWindow(55.754, 37.6204, 1.5);
    const withGeo = await post('/pickup-points/list', pointListBody('pickup', 213, window));
    expect(withGeo.json.points.length).toBeGreaterThan(10);
    expect(withGeo.bytes).toBeLessThan(MAX_CARRIER_RESPONSE_BYTES / 4);
    for (const p of withGeo.json.points as Array<{ position: { latitude: number; longitude: number } }>) {
      expect(p.position.latitude).toBeGreaterThanOrEqual(window.latitude.from);
      expect(p.position.latitude).toBeLessThanOrEqual(window.latitude.to);
      expect(p.position.longitude).toBeGreaterThanOrEqual(window.longitude.from);
      expect(p.position.longitude).toBeLessThanOrEqual(window.longitude.to);
    }
    const alone = await post('/pickup-points/list', { ...window, payment_method: 'already_paid' });
    expect(alone.json.points.length).toBeGreaterThanOrEqual(withGeo.json.points.length);
    const dropoff = await post('/pickup-points/list', pointListBody('dropoff', 213, window));
    expect(dropoff.json.points.length).toBeGreaterThan(0);
    expect(
      dropoff.json.points.every((p: { available_for_dropoff: boolean }) => p.available_for_dropoff),
    ).toBe(true);
    expect(dropoff.json.points.length).toBeLessThan(withGeo.json.points.length);
    const ids = withGeo.json.points.slice(0, 2).map((p: { id: string }) => p.id);
    expect((await post('/pickup-points/list', { pickup_point_ids: ids })).json.points).toHaveLength(2);
  });

  it('refuses a bad filter the way Yandex words it', async () => {
    expect(await post('/pickup-points/list', { geo_id: 213, type: 'bogus_type' })).toMatchObject({
      status: 400,
      json: { code: '400', message: "Value of 'type' (bogus_type) is not parseable into enum" },
    });
    const backwards = { latitude: { from: 56, to: 55 }, longitude: { from: 37, to: 38 } };
    expect((await post('/pickup-points/list', backwards)).status).toBe(400);
  });

  it('detect → geo_id → pickup points; drop-off filter; a self_pickup price to a point', async () => {
    const geo = (await post('/location/detect', { location: 'Казань' })).json.variants[0].geo_id;
    expect(geo).toBe(43);
    expect((await post('/location/detect', { location: 'Нигдевск' })).json.variants).toEqual([]);
    const all = (await post('/pickup-points/list', { geo_id: geo })).json.points;
    const dropoff = (await post('/pickup-points/list', { geo_id: geo, available_for_dropoff: true })).json
      .points;
    expect(all.length).toBeGreaterThan(dropoff.length);
    const r = await post(
      '/pricing-calculator',
      door({ tariff: 'self_pickup', destination: { platform_station_id: all[0].id } }),
    );
    expect(r.status).toBe(200);
  });

  it('formats roubles with as few decimals as needed', () => {
    expect(formatRoubles(22570)).toBe('225.7');
    expect(formatRoubles(22500)).toBe('225');
    expect(formatRoubles(22555)).toBe('225.55');
  });
});

describe('Yandex simulator: cash on delivery and places (#21)', () => {
  it('answers the commission apart with card on receipt; refuses a sum to collect on a prepaid parcel', async () => {
    const prepaid = await post('/pricing-calculator', door());
    const cod = await post(
      '/pricing-calculator',
      door({ client_price: 100_000, payment_method: 'card_on_receipt' }),
    );
    expect(cod.status).toBe(200);
    expect(cod.json).toMatchObject({
      pricing: prepaid.json.pricing_total,
      pricing_commission_on_delivery_payment: '2.2%',
      pricing_commission_on_delivery_payment_amount: '22 RUB',
    });
    expect(prepaid.json).not.toHaveProperty('pricing_commission_on_delivery_payment_amount');
    expect((await post('/pricing-calculator', door({ client_price: 100_000 }))).status).toBe(400);
    expect((await post('/pricing-calculator', door({ payment_method: 'cash' }))).json.code).toBe('400');
  });

  it('checks every place against the XL box, and prices them all', async () => {
    const box = { physical_dims: { weight_gross: 1200, dx: 30, dy: 15, dz: 20 } };
    const two = await post('/pricing-calculator', door({ total_weight: 2400, places: [box, box] }));
    const one = await post('/pricing-calculator', door());
    expect(parseFloat(two.json.pricing_total)).toBeGreaterThan(parseFloat(one.json.pricing_total));
    const heavy = { physical_dims: { weight_gross: 32_000, dx: 30, dy: 15, dz: 20 } };
    expect(
      (await post('/pricing-calculator', door({ total_weight: 33_200, places: [box, heavy] }))).status,
    ).toBe(404);
    // 40 kg in two places of 20 kg: each place fits, so it is priced.
    const half = { physical_dims: { weight_gross: 20_000, dx: 30, dy: 15, dz: 20 } };
    expect(
      (await post('/pricing-calculator', door({ total_weight: 40_000, places: [half, half] }))).status,
    ).toBe(200);
  });
});
