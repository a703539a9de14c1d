// #21: the pickup point chosen for a rate belongs to the result: kept with it across a restart, dropped with
// its rate, gone with a new run.
import { describe, expect, it } from 'vitest';
import type { PickupPoint } from '../../../../../../core/contract/points';
import { rateKey } from '../../../../../../renderer/src/features/quote/logic';
import { restoreRun, storableRun } from '../../../../../../renderer/src/features/quote/persist';
import { IDLE, runReducer, type RunState } from '../../../../../../renderer/src/features/quote/run';
import { quoteRate } from './quote-rate';

const sort = { key: 'price', dir: 'asc' } as const;
const shipment = {
  from: { city: 'Москва' },
  to: { city: 'Казань' },
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 }],
  cod_kopecks: 250_000,
};
const rate = quoteRate({
  carrier: 'cdek',
  carrier_name: 'СДЭК',
  service_code: '136',
  service_name: 'Посылка склад-склад',
  delivery_type: 'pickup_point',
  price_kopecks: 41_200,
  currency: 'RUB',
  price_type: 'public',
});
const point: PickupPoint = {
  carrier: 'cdek',
  code: 'KAZ115',
  kind: 'pvz',
  name: 'Садовая',
  address: 'Казань, ул. Садовая, 25',
  hours: 'Пн-Пт 10:00-20:00',
  lat: 55.8,
  lon: 49.1,
  distance_km: 0.4,
  max_weight_grams: 30_000,
  max_dimensions_cm: [60, 40, 40],
  cod: true,
  card: false,
};

function done(): RunState {
  let s = runReducer(IDLE, { type: 'start', key: 'k', carriers: ['cdek'], shipment });
  s = runReducer(s, {
    type: 'done',
    key: 'k',
    sort,
    result: { request_id: 'r', quote_id: 3, sandbox: true, rates: [rate], failures: [] },
  });
  return s;
}

describe('the chosen point', () => {
  it('is set and cleared per rate', () => {
    const s = runReducer(done(), { type: 'point', rate: rateKey(rate), point });
    expect(s.points).toEqual({ [rateKey(rate)]: point });
    expect(runReducer(s, { type: 'point', rate: rateKey(rate), point: null }).points).toEqual({});
    // A new run starts without any.
    expect(runReducer(s, { type: 'start', key: 'k2', carriers: ['cdek'], shipment }).points).toBeUndefined();
  });

  it('survives a restart with the result (and the clerk’s request, places and COD)', () => {
    const s = runReducer(done(), { type: 'point', rate: rateKey(rate), point });
    const back = restoreRun(JSON.parse(JSON.stringify(storableRun(s))), sort);
    expect(back.points).toEqual({ [rateKey(rate)]: point });
    expect(back.shipment?.places?.[0]?.count).toBe(2);
    expect(back.shipment?.cod_kopecks).toBe(250_000);
    expect(back.rates.get(rateKey(rate))).toEqual(rate);
  });

  it('a point that does not read, or whose rate was not kept, is dropped alone', () => {
    const stored = JSON.parse(
      JSON.stringify(storableRun(runReducer(done(), { type: 'point', rate: rateKey(rate), point }))),
    );
    stored.points['cdek/136'] = { code: 'broken' };
    stored.points['cdek/gone'] = point;
    expect(restoreRun(stored, sort).points).toBeUndefined();
    stored.points = { [rateKey(rate)]: point, 'cdek/gone': point };
    expect(restoreRun(stored, sort).points).toEqual({ [rateKey(rate)]: point });
  });
});
