// Cash on delivery, insurance and several places in Dellin's own fields (#21): the `cargo` block for N places
// (xylocode `DelLin/Calc1/Req/Cargo.cs`), `cargo.insurance {statedValue, term}` in roubles, and the fee
// breakdown read from answers shaped like Dellin's (`price`, `insurance`, `insuranceComponents`,
// `CalculationResponse.cs`). Dellin's calculator takes no cash on delivery: the rate says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELLIN_COD_NOT_QUOTED, readCalculation } from '../../../../../core/carriers/dellin/mapper';
import { buildCalculatorRequest, cargoOf, kladr25 } from '../../../../../core/carriers/dellin/request';

const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/carriers/dellin', name), 'utf8'));

describe('Dellin request: places', () => {
  it('N places are one cargo: the count, the largest of each side, the heaviest place and exact totals', () => {
    const cargo = cargoOf([
      BOX,
      { weight_grams: 4500, length_cm: 25, width_cm: 40, height_cm: 15 },
      { weight_grams: 700, length_cm: 10.2, width_cm: 10, height_cm: 55 },
    ]);
    expect(cargo).toEqual({
      quantity: 3,
      length: 0.3,
      width: 0.4,
      height: 0.55,
      weight: 4.5,
      // 6000 + 15000 + 6050 cm³ (11 × 10 × 55: whole centimetres rounded up)
      totalVolume: 0.02705,
      totalWeight: 6.4,
      hazardClass: 0,
    });
  });

  it('oversized weight and volume are those of the oversized places only', () => {
    const pallet = { weight_grams: 150_000, length_cm: 120, width_cm: 80, height_cm: 100 };
    expect(cargoOf([pallet, BOX, pallet])).toMatchObject({
      quantity: 3,
      weight: 150,
      totalWeight: 301.2,
      totalVolume: 1.926,
      oversizedWeight: 300,
      oversizedVolume: 1.92,
    });
  });

  it('a declared value is `cargo.insurance` in roubles, the date term not insured; COD is not in the body', () => {
    const body = buildCalculatorRequest({
      appkey: 'KEY',
      derivalTerminalId: '36',
      derivalCityKladr: kladr25('7700000000000'),
      arrival: { variant: 'terminal', terminalId: '42' },
      produceDate: '2026-11-24',
      places: [BOX, BOX],
      declaredValueKopecks: 5_000_050,
    });
    expect(body.cargo).toMatchObject({
      quantity: 2,
      totalWeight: 2.4,
      insurance: { statedValue: 50000.5, term: false },
    });
    expect(JSON.stringify(body)).not.toMatch(/cashOnDelivery|"cod/i);
  });
});

describe('Dellin answer: the fee breakdown', () => {
  it('insured: base = price − insurance, insurance from `data.insurance` (fixture shaped like xylocode’s)', () => {
    const r = readCalculation(200, fixture('calc-auto-terminal-insured.json'), 'terminal', '2026-11-24', {
      declaredValueKopecks: 5_000_000,
      codKopecks: 0,
    });
    expect(r.kind === 'rate' && r.rate).toMatchObject({
      price_kopecks: 247_550,
      breakdown: { base_kopecks: 232_550, insurance_kopecks: 15_000, cod_fee_kopecks: 0 },
    });
    expect(r.kind === 'rate' && r.rate.options_not_priced).toBeUndefined();
  });

  it('nothing declared: no insurance; the whole price is the base', () => {
    const r = readCalculation(200, fixture('calc-auto-terminal.json'), 'terminal', '2026-11-24');
    expect(r.kind === 'rate' && r.rate.breakdown).toEqual({
      base_kopecks: 184_050,
      insurance_kopecks: 0,
      cod_fee_kopecks: 0,
    });
  });

  it('cash on delivery: not quoted by the calculator, said on the rate, the fee unknown (never 0)', () => {
    const r = readCalculation(200, fixture('calc-auto-door-xylocode.json'), 'door', '2026-11-24', {
      declaredValueKopecks: 0,
      codKopecks: 300_000,
    });
    expect(r.kind === 'rate' && r.rate).toMatchObject({
      price_kopecks: 283_050,
      breakdown: { base_kopecks: 283_050, insurance_kopecks: 0, cod_fee_kopecks: null },
      options_not_priced: [{ option: 'cod', reason: 'not_quoted', detail: DELLIN_COD_NOT_QUOTED }],
    });
  });

  it('a value declared but no `insurance` in the answer: both parts unknown, inside the total', () => {
    const body = fixture('calc-auto-terminal-insured.json') as { data: Record<string, unknown> };
    delete body.data.insurance;
    const r = readCalculation(200, body, 'terminal', '2026-11-24', {
      declaredValueKopecks: 5_000_000,
      codKopecks: 0,
    });
    expect(r.kind === 'rate' && r.rate.breakdown).toEqual({
      base_kopecks: null,
      insurance_kopecks: null,
      cod_fee_kopecks: 0,
    });
  });
});
