// Cash on delivery, insurance and several places the 5Post way (#21). 5Post has no calculator: the catalogue's
// `rate[]` prices the order by its whole weight, each place must fit a cell, several places need a point that
// takes a multi-place order (`multiplaceDeliveryAllowed`), cash on delivery a point that takes payment
// (`cashAllowed`/`cardAllowed`); insurance and the COD commission are 5Post's percentages (fees.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codFee, codPaymentAt, insuranceFee } from '../../../../../core/carriers/fivepost/fees';
import { FIVEPOST_LIMITS } from '../../../../../core/carriers/fivepost/limits';
import { exceededShipmentLimits } from '../../../../../core/carriers/limits';
import { readPoint, type StoredPoint } from '../../../../../core/carriers/fivepost/points';
import { quoteFromPoints, type FivePostShipment } from '../../../../../core/carriers/fivepost/quote';

/** The captured point (lapaygroup README): a postamat taking neither cash nor card, no multi-place orders. */
const CAPTURED = JSON.parse(
  readFileSync(join(__dirname, '../../../../fixtures/carriers/fivepost/captured-point.json'), 'utf8'),
) as Record<string, unknown>;
const point = (over: Record<string, unknown> = {}): StoredPoint => readPoint({ ...CAPTURED, ...over })!;
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const ship = (over: Partial<FivePostShipment> = {}): FivePostShipment => ({
  places: [BOX],
  declaredValueKopecks: 0,
  codKopecks: 0,
  ...over,
});
const rateOf = (points: StoredPoint[], shipment: FivePostShipment) => {
  const r = quoteFromPoints(points, shipment, 'per_started_kg', 'Зеленодольск');
  if (!r.ok) throw new Error(`expected a rate: ${JSON.stringify(r.failure)}`);
  return r.rates[0]!;
};

describe('5Post fees', () => {
  it('insurance 0.5 % of the value; COD 2.5 % by card, 1.5 % in cash, half-up kopecks', () => {
    expect(insuranceFee(300_000)).toBe(1_500); // the guide's 3000 ₽ → 15 ₽
    expect(codFee(550_000, 'card')).toBe(13_750);
    expect(codFee(550_000, 'cash')).toBe(8_250);
    expect(codFee(1, 'card')).toBe(0);
    expect(codFee(20, 'card')).toBe(1); // 0.5 kopeck rounds up
  });

  it('a point collects by card where it can, else in cash, else not at all', () => {
    expect(codPaymentAt(point({ cashAllowed: true, cardAllowed: true }).point!)).toBe('card');
    expect(codPaymentAt(point({ cashAllowed: true, cardAllowed: false }).point!)).toBe('cash');
    expect(codPaymentAt(point().point!)).toBeNull(); // the capture: both false, prepaid only
  });
});

describe('5Post quote: the captured point', () => {
  it('prepaid and insured: delivery 239.00 ₽ + 0.5 % of 10 000 ₽, parts apart', () => {
    expect(rateOf([point()], ship({ declaredValueKopecks: 1_000_000 }))).toMatchObject({
      price_kopecks: 23_900 + 5_000,
      breakdown: { base_kopecks: 23_900, insurance_kopecks: 5_000, cod_fee_kopecks: 0 },
    });
  });

  it('cash on delivery at a point taking no payment: the rate stands, COD not offered, nothing charged for it', () => {
    const r = rateOf([point()], ship({ codKopecks: 500_000 }));
    expect(r.options_not_priced).toEqual([
      {
        option: 'cod',
        reason: 'not_offered',
        detail: 'no 5Post POSTAMAT point in Зеленодольск takes payment on receipt',
      },
    ]);
    expect(r.breakdown?.cod_fee_kopecks).toBeNull();
  });

  it('cash on delivery: the cheapest point that collects, the COD amount insured at least', () => {
    const prepaidOnly = point({ id: 'cheap' });
    const card = point({
      id: 'card',
      cardAllowed: true,
      rate: [{ ...(CAPTURED.rate as object[])[0], rateValueWithVat: 260 }],
    });
    const r = rateOf([prepaidOnly, card], ship({ declaredValueKopecks: 200_000, codKopecks: 500_000 }));
    expect(r).toMatchObject({
      price_kopecks: 26_000 + 2_500 + 12_500,
      breakdown: { base_kopecks: 26_000, insurance_kopecks: 2_500, cod_fee_kopecks: 12_500 },
      insured_value_kopecks: 500_000,
    });
    expect(r.options_not_priced).toBeUndefined();
  });
});

describe('5Post quote: several places', () => {
  it('priced by the order’s whole weight (3.6 kg: one extra kilogram)', () => {
    const multi = point({ multiplaceDeliveryAllowed: true });
    expect(rateOf([multi], ship({ places: [BOX, BOX, BOX] })).price_kopecks).toBe(23_900 + 3_600);
  });

  it('only at a point taking multi-place orders', () => {
    const r = quoteFromPoints([point()], ship({ places: [BOX, BOX] }), 'per_started_kg', 'Зеленодольск');
    expect(r).toEqual({
      ok: false,
      failure: { kind: 'no_service', detail: 'no 5Post point in Зеленодольск takes these 2 places' },
    });
  });

  it('every place must fit a cell (the capture’s 45.7 × 40 × 32.2 cm, 15 kg)', () => {
    const multi = point({ multiplaceDeliveryAllowed: true });
    const tall = { weight_grams: 500, length_cm: 33, width_cm: 41, height_cm: 46 };
    expect(quoteFromPoints([multi], ship({ places: [BOX, tall] }), 'per_started_kg', 'x').ok).toBe(false);
    // Two boxes of 9 kg: each fits 15 kg, together 18 kg (one order, priced by its weight).
    const nine = { ...BOX, weight_grams: 9_000 };
    expect(rateOf([multi], ship({ places: [nine, nine] })).price_kopecks).toBe(23_900 + 15 * 3_600);
  });
});

describe('5Post limits per place (#21)', () => {
  it('every place against the largest cell (25 kg, 60 cm); the shipment’s total is not capped', () => {
    const twenty = { ...BOX, weight_grams: 20_000 };
    expect(exceededShipmentLimits(FIVEPOST_LIMITS, [twenty, twenty, twenty])).toEqual([]);
    expect(exceededShipmentLimits(FIVEPOST_LIMITS, [BOX, { ...BOX, weight_grams: 26_000 }])).toEqual([
      'place 2: weight 26 kg over 25 kg',
    ]);
  });
});
