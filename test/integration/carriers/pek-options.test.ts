// PEK with several places, a declared value and cash on delivery, against the PEK simulator over real HTTP
// (#21): the simulator prices every `cargos[]` element and the insurance as a service of its own, the adapter
// shows the parts, and says that PEK's calculator does not price cash on delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { createPekAdapter } from '../../../core/carriers/pek';
import { PEK_COD_NOT_QUOTED } from '../../../core/carriers/pek/mapper';
import { NO_RATE_LIMIT } from '../../../core/carriers/pek/rate-limit';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../../../core/carriers/simulators/pek';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

async function rates(over: Partial<CarrierQuoteRequest>): Promise<CarrierRate[]> {
  const s = await startPekSimulator();
  sims.push(s);
  const adapter = createPekAdapter({
    baseUrl: s.url,
    login: PEK_SIM_LOGIN,
    apiKey: PEK_SIM_API_KEY,
    limiter: NO_RATE_LIMIT,
  });
  const out = await adapter.quote(
    makeQuoteRequest({
      from: { city: 'Москва', postalCode: '101000' },
      to: { city: 'Новосибирск', postalCode: '630000' },
      parcel: BOX,
      declaredValueKopecks: 0,
      ...over,
    }),
    ctx(),
  );
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}`);
  return out.rates;
}
const terminal = (list: CarrierRate[]): CarrierRate => list.find((r) => r.service_code === 'pek:3:terminal')!;

describe('PEK: places, insurance and cash on delivery through the simulator', () => {
  it('every place is a cargo: a heavy second place costs more', async () => {
    const one = terminal(await rates({}));
    const two = terminal(
      await rates({ places: [BOX, { weight_grams: 300_000, length_cm: 120, width_cm: 80, height_cm: 100 }] }),
    );
    expect(two.price_kopecks).toBeGreaterThan(one.price_kopecks);
    expect(two.breakdown).toEqual({
      base_kopecks: two.price_kopecks,
      insurance_kopecks: 0,
      cod_fee_kopecks: 0,
    });
  });

  it('a place over what the department takes refuses the product, as PEK does per place', async () => {
    const s = await startPekSimulator();
    sims.push(s);
    const adapter = createPekAdapter({
      baseUrl: s.url,
      login: PEK_SIM_LOGIN,
      apiKey: PEK_SIM_API_KEY,
      limiter: NO_RATE_LIMIT,
      types: [3, 12],
    });
    const out = await adapter.quote(
      makeQuoteRequest({
        from: { city: 'Москва', postalCode: '101000' },
        to: { city: 'Новосибирск', postalCode: '630000' },
        parcel: BOX,
        // EasyWay takes places up to 30 kg: the 35 kg box rules it out, LTL still carries both.
        places: [BOX, { weight_grams: 35_000, length_cm: 40, width_cm: 40, height_cm: 40 }],
        declaredValueKopecks: 0,
      }),
      ctx(),
    );
    expect(out.ok && out.rates.map((r) => r.service_code).sort()).toEqual(['pek:3:door', 'pek:3:terminal']);
  });

  it('insures the declared value: PEK’s insurance service is its own part', async () => {
    const plain = terminal(await rates({ places: [BOX, BOX] }));
    const insured = terminal(await rates({ places: [BOX, BOX], declaredValueKopecks: 5_000_000 }));
    // The simulator's 0.3 % of 50 000 ₽.
    expect(insured.breakdown).toEqual({
      base_kopecks: plain.price_kopecks,
      insurance_kopecks: 15_000,
      cod_fee_kopecks: 0,
    });
    expect(insured.price_kopecks).toBe(plain.price_kopecks + 15_000);
  });

  it('cash on delivery: rates stand, each says the COD fee is not quoted', async () => {
    const list = await rates({ codKopecks: 300_000 });
    expect(list.length).toBeGreaterThan(0);
    for (const r of list) {
      expect(r.options_not_priced).toEqual([
        { option: 'cod', reason: 'not_quoted', detail: PEK_COD_NOT_QUOTED },
      ]);
      expect(r.breakdown?.cod_fee_kopecks).toBeNull();
    }
  });
});
