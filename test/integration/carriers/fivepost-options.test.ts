// 5Post with several places, a declared value and cash on delivery, against its simulator's catalogue over
// real HTTP (#21): the sandbox points carry 5Post's flags (`cashAllowed`, `cardAllowed`,
// `multiplaceDeliveryAllowed`), so several places go only to pickup points taking multi-place orders, and the
// fees are 5Post's percentages on top of the catalogue's delivery rate.
import { afterEach, describe, expect, it } from 'vitest';
import { createFivePostAdapter, memoryCatalogueStore } from '../../../core/carriers/fivepost';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import {
  startFivePostSimulator,
  type FivePostSimulatorHandle,
} from '../../../core/carriers/simulators/fivepost';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';

const KEY = 'options-key';
const sims: FivePostSimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const ctx = () => ({ signal: AbortSignal.timeout(20_000) });

async function quote(
  to: CarrierQuoteRequest['to'],
  over: Partial<CarrierQuoteRequest>,
): Promise<CarrierOutcome> {
  const s = await startFivePostSimulator({ apiKey: KEY });
  sims.push(s);
  const adapter = createFivePostAdapter({ baseUrl: s.url, apiKey: KEY, store: memoryCatalogueStore() });
  return adapter.quote(
    makeQuoteRequest({
      from: { city: 'Москва', postalCode: '101000' },
      to,
      parcel: BOX,
      declaredValueKopecks: 0,
      ...over,
    }),
    ctx(),
  );
}
const TULA = { city: 'Тула', postalCode: null };
const KAZAN = { city: 'Казань', postalCode: '420000' };

describe('5Post: places, insurance and cash on delivery from the simulator’s catalogue', () => {
  it('one box: every point type; several places: only pickup points taking multi-place orders, by total weight', async () => {
    const one = await quote(TULA, {});
    expect(one.ok && one.rates.map((r) => r.service_code).sort()).toEqual([
      '5post:ISSUE_POINT',
      '5post:POSTAMAT',
    ]);
    const three = await quote(TULA, { places: [BOX, BOX, BOX] });
    expect(three.ok && three.rates.map((r) => r.service_code)).toEqual(['5post:ISSUE_POINT']);
    const single = one.ok ? one.rates.find((r) => r.service_code === '5post:ISSUE_POINT')! : null;
    expect(three.ok && three.rates[0]!.price_kopecks).toBeGreaterThan(single!.price_kopecks); // 3.6 kg > 3 kg
  });

  it('insurance and cash on delivery on top of the delivery rate, each its own part; the COD amount insured', async () => {
    const plain = await quote(KAZAN, {});
    const both = await quote(KAZAN, { declaredValueKopecks: 200_000, codKopecks: 1_000_000 });
    if (!plain.ok || !both.ok) throw new Error('expected rates');
    for (const rate of both.rates) {
      const base = plain.rates.find((r) => r.service_code === rate.service_code)!.price_kopecks;
      // Every sandbox point takes a card: 2.5 % of 10 000 ₽; insurance 0.5 % of max(2 000, 10 000) ₽.
      expect(rate).toMatchObject({
        price_kopecks: base + 5_000 + 25_000,
        breakdown: { base_kopecks: base, insurance_kopecks: 5_000, cod_fee_kopecks: 25_000 },
        insured_value_kopecks: 1_000_000,
      });
    }
  });
});
