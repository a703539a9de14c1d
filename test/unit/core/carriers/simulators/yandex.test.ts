// The Yandex simulator refuses what Yandex refuses: no or wrong Bearer token (401 "Access denied"), missing or
// mistyped fields and over-limit parcels (400 validation_error), unknown stations, unreadable addresses; and it
// answers prices as "<number> RUB" strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../../../../../core/carriers/simulators/handle';
import {
  formatRoubles,
  startYandexSimulator,
  YANDEX_SIM_TOKEN,
  YANDEX_TEST_STATION,
} from '../../../../../core/carriers/simulators/yandex';

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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

const door = (over: Record<string, unknown> = {}) => ({
  source: { platform_station_id: YANDEX_TEST_STATION },
  destination: { address: '420000, Республика Татарстан, Казань' },
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
    expect(await post('/pricing-calculator', door(), null)).toEqual({
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

  it('refuses parcels over its limits', async () => {
    const big = door({ places: [{ physical_dims: { weight_gross: 1200, dx: 80, dy: 15, dz: 20 } }] });
    expect((await post('/pricing-calculator', big)).json).toEqual({
      code: 'validation_error',
      message: 'Dimensions should not exceed limit',
    });
    const heavy = door({ total_weight: 40_000 });
    expect((await post('/pricing-calculator', heavy)).status).toBe(400);
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
