// Dellin with several places, a declared value and cash on delivery, against the Dellin simulator over real
// HTTP (#21): the simulator prices the cargo's totals and the insurance the way Dellin's answer carries them,
// the adapter shows the parts, and says that Dellin's calculator does not price cash on delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { createDellinAdapter } from '../../../core/carriers/dellin';
import { DELLIN_COD_NOT_QUOTED } from '../../../core/carriers/dellin/mapper';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import { DELLIN_SIM_DEFAULT_APPKEY, startDellinSimulator } from '../../../core/carriers/simulators/dellin';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

/** A Tuesday at noon in Moscow: the simulator refuses Sundays (180012). */
const TUESDAY = new Date('2030-01-08T09:00:00Z');
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

async function quote(over: Partial<CarrierQuoteRequest>): Promise<CarrierRate> {
  const s = await startDellinSimulator();
  sims.push(s);
  const adapter = createDellinAdapter({
    baseUrl: s.url,
    appkey: DELLIN_SIM_DEFAULT_APPKEY,
    now: () => TUESDAY,
  });
  const out: CarrierOutcome = await adapter.quote(
    makeQuoteRequest({
      from: { city: 'Москва', postalCode: '101000' },
      to: { city: 'Казань', postalCode: '420000' },
      parcel: BOX,
      declaredValueKopecks: 0,
      ...over,
    }),
    ctx(),
  );
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}`);
  const terminal = out.rates.find((r) => r.service_code === 'dellin:auto:terminal');
  if (!terminal) throw new Error('no terminal rate');
  return terminal;
}

describe('Dellin: places, insurance and cash on delivery through the simulator', () => {
  it('prices every place: heavy places cost more than one box', async () => {
    const one = await quote({});
    const many = await quote({
      places: [BOX, { weight_grams: 250_000, length_cm: 120, width_cm: 80, height_cm: 100 }, BOX],
    });
    expect(many.price_kopecks).toBeGreaterThan(one.price_kopecks);
    expect(many.breakdown).toEqual({
      base_kopecks: many.price_kopecks,
      insurance_kopecks: 0,
      cod_fee_kopecks: 0,
    });
  });

  it('insures the declared value: the insurance is its own part of the total', async () => {
    const plain = await quote({ places: [BOX, BOX] });
    const insured = await quote({ places: [BOX, BOX], declaredValueKopecks: 5_000_000 });
    // The simulator's 0.3 % of 50 000 ₽.
    expect(insured.breakdown).toEqual({
      base_kopecks: plain.price_kopecks,
      insurance_kopecks: 15_000,
      cod_fee_kopecks: 0,
    });
    expect(insured.price_kopecks).toBe(plain.price_kopecks + 15_000);
  });

  it('cash on delivery: the rate stands, says the COD fee is not quoted, and the price is unchanged', async () => {
    const plain = await quote({});
    const cod = await quote({ codKopecks: 300_000 });
    expect(cod.price_kopecks).toBe(plain.price_kopecks);
    expect(cod.breakdown?.cod_fee_kopecks).toBeNull();
    expect(cod.options_not_priced).toEqual([
      { option: 'cod', reason: 'not_quoted', detail: DELLIN_COD_NOT_QUOTED },
    ]);
  });
});
