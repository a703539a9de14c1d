// What the history list gets per quote (#17 item 8): the carrier of the cheapest rate, and the carriers that
// gave no rate (a partial answer), for desk quotes and /v1 calls alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../../core/desk/contract';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
});
afterAll(() => ts.close());

async function rows(): Promise<HistoryRow[]> {
  const r = await ts.service.desk.dispatch('history:search', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value as HistoryRow[];
}

describe('history:search rows', () => {
  it('name the cheapest carrier, and mark a pallet as a partial answer with each failure as a kind', async () => {
    const r = await ts.service.desk.dispatch('quote:run', {
      quoteKey: 'pallet',
      shipment: {
        ...SHIPMENT,
        parcel: { weight_grams: 300_000, length_cm: 120, width_cm: 100, height_cm: 100 },
      },
    });
    if (!r.ok) throw new Error(r.error.message);
    const q = r.value as { quote_id: number; rates: { carrier: string; price_kopecks: number }[] };
    const row = (await rows()).find((x) => x.id === q.quote_id)!;
    const cheapest = [...q.rates].sort((a, b) => a.price_kopecks - b.price_kopecks)[0]!;
    expect(row.cheapest_carrier).toBe(cheapest.carrier);
    expect(row.cheapest_kopecks).toBe(cheapest.price_kopecks);
    expect(row.failures.map((f) => f.carrier).sort()).toEqual([
      '5post',
      'boxberry',
      'dpd',
      'russian-post',
      'yandex',
    ]);
    expect(new Set(row.failures.map((f) => f.kind))).toEqual(new Set(['exceeds_limits']));
  });

  it('read a /v1 call’s failures back from its wire reasons', async () => {
    const api = await ts.postRates({ ...SHIPMENT, to: { city: 'Казань', postal_code: '999913' } });
    expect(api.status).toBe(200);
    const row = (await rows()).find((x) => x.source === 'api')!;
    expect(row.failures).toContainEqual({ carrier: 'cdek', kind: 'no_service' });
    expect(row.cheapest_carrier).not.toBeNull();
    expect(row.failures.some((f) => f.carrier === row.cheapest_carrier)).toBe(false);
  });

  it('a quote no carrier answered has no cheapest carrier', async () => {
    const r = await ts.service.desk.dispatch('quote:run', {
      quoteKey: 'none',
      shipment: { ...SHIPMENT, to: { city: 'Казань', postal_code: '999999' } },
    });
    if (!r.ok) throw new Error(r.error.message);
    const row = (await rows())[0]!;
    expect(row).toMatchObject({ cheapest_kopecks: null, cheapest_carrier: null, carriers: [] });
    expect(row.failures.length).toBeGreaterThan(0);
  });
});
