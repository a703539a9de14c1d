// The clerk's quote through POST /ext/v1/rates in sandbox mode (#21), end to end for Dellin, PEK, Yandex and
// 5Post: two places, a declared value and cash on delivery reach each simulator in that carrier's fields, and
// every rate comes back with its parts — the insurance apart where the carrier gives it, the COD fee apart
// (Yandex, 5Post) or said not quoted (Dellin's and PEK's calculators), never silently left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestService, type TestService } from '../../helpers/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    settings: { 'rating.carrier_timeout_ms': '15000', 'rating.deadline_ms': '20000' },
  });
});
afterAll(() => t.close());

interface ExtRate {
  carrier: string;
  service_code: string;
  price_kopecks: number;
  breakdown: {
    base_kopecks: number | null;
    insurance_kopecks: number | null;
    cod_fee_kopecks: number | null;
  };
  options_not_priced: Array<{ option: string; reason: string }>;
  insured_value_kopecks: number;
  places: number;
}

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

async function ext(body: Record<string, unknown>): Promise<ExtRate[]> {
  const r = await rawRequest(t.port, {
    method: 'POST',
    path: '/ext/v1/rates',
    headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      from: { city: 'Москва', postal_code: '101000' },
      to: { city: 'Казань', postal_code: '420000' },
      carriers: ['dellin', 'pek', 'yandex', '5post'],
      ...body,
    }),
  });
  expect(r.status, r.text).toBe(200);
  return r.json.rates as ExtRate[];
}

describe('/ext/v1/rates: places, insurance and cash on delivery for Dellin, PEK, Yandex and 5Post', () => {
  it('every rate carries its parts, and says what it could not price', async () => {
    const rates = await ext({
      places: [{ ...BOX, count: 2 }],
      declared_value_kopecks: 2_000_000,
      cod_kopecks: 1_000_000,
    });
    const by = (carrier: string) => rates.filter((r) => r.carrier === carrier);
    expect(new Set(rates.map((r) => r.carrier))).toEqual(new Set(['dellin', 'pek', 'yandex', '5post']));
    for (const r of rates) expect(r.places).toBe(2);

    for (const r of [...by('dellin'), ...by('pek')]) {
      // Insurance priced by the carrier's calculator (the simulators' 0.3 % of 20 000 ₽), COD not quoted.
      expect(r.breakdown).toMatchObject({ insurance_kopecks: 6_000, cod_fee_kopecks: null });
      expect(r.breakdown.base_kopecks! + 6_000).toBe(r.price_kopecks);
      expect(r.options_not_priced).toEqual([
        expect.objectContaining({ option: 'cod', reason: 'not_quoted' }),
      ]);
    }
    for (const r of by('yandex')) {
      // The simulator's commission, 2.2 % of 10 000 ₽; insurance inside Yandex's delivery sum.
      expect(r.breakdown).toEqual({ base_kopecks: null, insurance_kopecks: null, cod_fee_kopecks: 22_000 });
      expect(r.options_not_priced).toEqual([]);
    }
    for (const r of by('5post')) {
      // 5Post's percentages: 0.5 % of max(20 000, 10 000) ₽; 2.5 % of 10 000 ₽ by card.
      expect(r.breakdown).toMatchObject({ insurance_kopecks: 10_000, cod_fee_kopecks: 25_000 });
      expect(r.breakdown.base_kopecks! + 35_000).toBe(r.price_kopecks);
    }
  });

  it('a prepaid, uninsured parcel: nothing left out, the base is the price', async () => {
    const rates = await ext({ parcel: BOX });
    expect(rates.length).toBeGreaterThan(0);
    for (const r of rates) {
      expect(r.options_not_priced).toEqual([]);
      expect(r.breakdown).toEqual({
        base_kopecks: r.price_kopecks,
        insurance_kopecks: 0,
        cod_fee_kopecks: 0,
      });
    }
  });
});
