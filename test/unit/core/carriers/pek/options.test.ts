// Cash on delivery, insurance and several places in PEK's own fields (#21): `cargos[]` one element per place,
// `isInsurance` / `isInsurancePrice` in roubles, and the fee breakdown from `transfers[].services[]` on answers
// shaped like glook/pecom-php-sdk's models (sub-services' costs are not in their parent's). PEK's calculator
// takes no cash on delivery: the rate says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PEK_COD_NOT_QUOTED, readCalculate } from '../../../../../core/carriers/pek/mapper';
import { buildCalculateRequest } from '../../../../../core/carriers/pek/request';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/carriers/pek', name), 'utf8'));
const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const now = new Date('2026-03-10T07:00:00Z');

describe('PEK request: places and insurance', () => {
  it('one `cargos[]` element per place, each in m, m³ and kg; the declared value in roubles', () => {
    const body = buildCalculateRequest({
      types: [3],
      senderWarehouseId: 'from',
      to: { warehouseId: 'to' },
      places: [BOX, { weight_grams: 25_500, length_cm: 120, width_cm: 80, height_cm: 40 }, BOX],
      declaredValueKopecks: 4_500_050,
      now,
    });
    expect(body.cargos).toEqual([
      { length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 },
      { length: 1.2, width: 0.8, height: 0.4, volume: 0.39, weight: 25.5 },
      { length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 },
    ]);
    expect(body).toMatchObject({ isInsurance: true, isInsurancePrice: 45000.5 });
    expect(JSON.stringify(body)).not.toMatch(/cashOnDelivery/);
  });
});

describe('PEK answer: the fee breakdown', () => {
  it('insurance = the insurance services with their sub-services; base = costTotal − insurance', () => {
    const out = readCalculate(200, fixture('calc-terminal-insured.json'), 'terminal', {
      declaredValueKopecks: 4_500_000,
      codKopecks: 0,
    }).outcome;
    expect(out.ok && out.rates[0]).toMatchObject({
      price_kopecks: 231_075,
      breakdown: { base_kopecks: 216_050, insurance_kopecks: 15_025, cod_fee_kopecks: 0 },
    });
  });

  it('no insurance service though a value was declared: both parts unknown, inside the total', () => {
    const out = readCalculate(200, fixture('calc-door-ok.json'), 'door', {
      declaredValueKopecks: 100_000,
      codKopecks: 0,
    }).outcome;
    expect(out.ok && out.rates[0]!.breakdown).toEqual({
      base_kopecks: null,
      insurance_kopecks: null,
      cod_fee_kopecks: 0,
    });
  });

  it('cash on delivery: the rate stands, the fee is not quoted and said so', () => {
    const out = readCalculate(200, fixture('calc-door-ok.json'), 'door', {
      declaredValueKopecks: 0,
      codKopecks: 250_000,
    }).outcome;
    expect(out.ok && out.rates[0]).toMatchObject({
      price_kopecks: 214_550,
      breakdown: { base_kopecks: 214_550, insurance_kopecks: 0, cod_fee_kopecks: null },
      options_not_priced: [{ option: 'cod', reason: 'not_quoted', detail: PEK_COD_NOT_QUOTED }],
    });
  });
});
