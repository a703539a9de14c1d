// Yandex Delivery with several places, a declared value and cash on delivery, against its simulator over real
// HTTP (#21): every place priced and checked against the package ceiling on its own, the commission for taking
// the payment answered apart and shown apart, and a COD parcel sent to a pickup point that takes a card.
import { afterEach, describe, expect, it } from 'vitest';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import { startYandexSimulator, YANDEX_SIM_TOKEN } from '../../../core/carriers/simulators/yandex';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import { createYandexAdapter } from '../../../core/carriers/yandex';
import type { CarrierRate } from '../../../core/contract/quote-ext';

const sims: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

async function quote(over: Partial<CarrierQuoteRequest>): Promise<CarrierOutcome> {
  const s = await startYandexSimulator();
  sims.push(s);
  return createYandexAdapter({ baseUrl: s.url, token: YANDEX_SIM_TOKEN }).quote(
    makeQuoteRequest({
      from: { city: 'Москва', postalCode: '101000' },
      to: { city: 'Казань', postalCode: '420000' },
      parcel: BOX,
      declaredValueKopecks: 0,
      ...over,
    }),
    ctx(),
  );
}
async function pickupRate(over: Partial<CarrierQuoteRequest>): Promise<CarrierRate> {
  const out = await quote(over);
  const rate = out.ok ? out.rates.find((r) => r.service_code === 'yandex:self_pickup') : undefined;
  if (!rate) throw new Error(`no pickup-point rate: ${JSON.stringify(out)}`);
  return rate;
}

describe('Yandex: places, insurance and cash on delivery through the simulator', () => {
  it('prices every place (the total weight and each place handled)', async () => {
    const one = await pickupRate({});
    const three = await pickupRate({ places: [BOX, BOX, BOX] });
    expect(three.price_kopecks).toBeGreaterThan(one.price_kopecks);
    expect(three.breakdown).toEqual({
      base_kopecks: three.price_kopecks,
      insurance_kopecks: 0,
      cod_fee_kopecks: 0,
    });
  });

  it('a second place over the XL box is over Yandex’s dimensions, though the first fits', async () => {
    const out = await quote({
      places: [BOX, { weight_grams: 2000, length_cm: 80, width_cm: 20, height_cm: 20 }],
    });
    // The pickup leg's 404 "Dimensions should not exceed limit" (the door leg is refused for its town-level
    // address first). The platform refuses such a place before any call (YANDEX_LIMITS, per place).
    expect(out).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('cash on delivery: card on receipt, the commission its own part of the total', async () => {
    const prepaid = await pickupRate({});
    const cod = await pickupRate({ codKopecks: 500_000 });
    // The simulator's 2.2 % of 5 000 ₽.
    expect(cod.breakdown).toEqual({
      base_kopecks: prepaid.price_kopecks,
      insurance_kopecks: 0,
      cod_fee_kopecks: 11_000,
    });
    expect(cod.price_kopecks).toBe(prepaid.price_kopecks + 11_000);
    expect(cod.options_not_priced).toBeUndefined();
  });

  it('a declared value is priced (inside Yandex’s delivery sum, so not shown apart)', async () => {
    const plain = await pickupRate({});
    const insured = await pickupRate({ declaredValueKopecks: 2_000_000 });
    expect(insured.price_kopecks).toBeGreaterThan(plain.price_kopecks);
    expect(insured.breakdown).toEqual({ base_kopecks: null, insurance_kopecks: null, cod_fee_kopecks: 0 });
  });
});
