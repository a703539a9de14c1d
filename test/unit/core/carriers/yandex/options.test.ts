// Cash on delivery, insurance and several places in Yandex's own fields (#21): `places[]` one element per
// place, `total_weight` all of them, `total_assessed_price` (kopecks) the declared value, `client_price`
// (kopecks) the sum collected with `payment_method: card_on_receipt`; and the breakdown from an answer shaped
// like clients' models of it (`pricing`, `pricing_commission_on_delivery_payment_amount`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exceededShipmentLimits } from '../../../../../core/carriers/limits';
import { YANDEX_LIMITS } from '../../../../../core/carriers/yandex/limits';
import { readPricing } from '../../../../../core/carriers/yandex/mapper';
import { pointListBody } from '../../../../../core/carriers/yandex/points';
import { buildPricingRequest } from '../../../../../core/carriers/yandex/request';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/carriers/yandex', name), 'utf8'));
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };

describe('Yandex request: places, insurance, cash on delivery', () => {
  it('every place in `places[]`, the total weight of all, the assessed value and the sum to collect', () => {
    const body = buildPricingRequest({
      sourceStationId: 'src',
      destination: { platform_station_id: 'pvz' },
      tariff: 'self_pickup',
      places: [BOX, { weight_grams: 4500, length_cm: 40.5, width_cm: 30, height_cm: 20 }],
      declaredValueKopecks: 500_000,
      codKopecks: 650_000,
    });
    expect(body).toMatchObject({
      total_weight: 5700,
      total_assessed_price: 500_000,
      client_price: 650_000,
      payment_method: 'card_on_receipt',
      places: [
        { physical_dims: { weight_gross: 1200, dx: 30, dy: 15, dz: 20 } },
        { physical_dims: { weight_gross: 4500, dx: 41, dy: 20, dz: 30 } },
      ],
    });
  });

  it('prepaid without COD; a COD parcel looks for a pickup point that takes a card', () => {
    const body = buildPricingRequest({
      sourceStationId: 'src',
      destination: { address: 'Москва, Тверская 1' },
      tariff: 'time_interval',
      places: [BOX],
      declaredValueKopecks: 0,
      codKopecks: 0,
    });
    expect(body).toMatchObject({ client_price: 0, payment_method: 'already_paid' });
    expect(pointListBody('pickup_card', 213, null)).toMatchObject({ payment_method: 'card_on_receipt' });
    expect(pointListBody('pickup', 213, null)).toMatchObject({ payment_method: 'already_paid' });
  });
});

describe('Yandex answer: the fee breakdown', () => {
  it('COD: the commission is its own part; `pricing` (delivery) the base when nothing is declared', () => {
    const out = readPricing(200, fixture('pricing-cod.json'), 'self_pickup', '', {
      declaredValueKopecks: 0,
      codKopecks: 100_000,
    }).outcome;
    expect(out.ok && out.rates[0]).toMatchObject({
      price_kopecks: 41_283,
      breakdown: { base_kopecks: 39_080, insurance_kopecks: 0, cod_fee_kopecks: 2_203 },
    });
    expect(out.ok && out.rates[0]!.options_not_priced).toBeUndefined();
  });

  it('a declared value: Yandex gives delivery and insurance as one sum, so both stay unknown', () => {
    const out = readPricing(200, fixture('pricing-cod.json'), 'self_pickup', '', {
      declaredValueKopecks: 500_000,
      codKopecks: 100_000,
    }).outcome;
    expect(out.ok && out.rates[0]!.breakdown).toEqual({
      base_kopecks: null,
      insurance_kopecks: null,
      cod_fee_kopecks: 2_203,
    });
  });

  it('COD asked but the answer names no commission: inside the total, not a made-up 0', () => {
    const out = readPricing(200, { pricing_total: '412.83 RUB', delivery_days: 3 }, 'self_pickup', '', {
      declaredValueKopecks: 0,
      codKopecks: 100_000,
    }).outcome;
    expect(out.ok && out.rates[0]!.breakdown).toEqual({
      base_kopecks: null,
      insurance_kopecks: 0,
      cod_fee_kopecks: null,
    });
  });
});

describe('Yandex limits per place (#21)', () => {
  it('each place against the XL box and 31 kg; no cap on the order as a whole', () => {
    const box = { weight_grams: 30_000, length_cm: 60, width_cm: 40, height_cm: 45 };
    expect(exceededShipmentLimits(YANDEX_LIMITS, [box, box, box])).toEqual([]);
    expect(exceededShipmentLimits(YANDEX_LIMITS, [box, { ...box, length_cm: 80 }])).toEqual([
      'place 2: longest side 80 cm over 60 cm',
      'place 2: sum of sides 165 cm over 145 cm',
    ]);
  });
});
