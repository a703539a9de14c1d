// #21, a rate's extras as the Quote screen and History show and copy them: fee columns only where a carrier
// names the fee apart, the price's parts adding up in words, the chosen point and the customer's price in
// the copied text and columns, the points query for the asked boxes.
import { describe, expect, it } from 'vitest';
import type { PickupPoint } from '../../../../../../core/contract/points';
import { resultsAsTsv } from '../../../../../../renderer/src/features/quote/copy-tsv';
import { copiedPrice, rateAsText } from '../../../../../../renderer/src/features/quote/copy-text';
import { hasPoints, pointLimits, pointsQuery } from '../../../../../../renderer/src/features/quote/points';
import {
  breakdownText,
  feeColumns,
  hasCustomerPrices,
} from '../../../../../../renderer/src/features/quote/rate-extras';
import { carrierNamer } from '../../../../../../renderer/src/lib/carrier-names';
import { quoteRate } from './quote-rate';

const base = {
  carrier: 'dellin',
  carrier_name: 'Деловые Линии',
  service_code: 'auto',
  service_name: 'Автоперевозка',
  delivery_type: 'terminal' as const,
  price_kopecks: 46_500,
  currency: 'RUB' as const,
  days_min: 5,
  days_max: 7,
  price_type: 'public' as const,
};
const dellin = quoteRate(base, {
  breakdown: { base_kopecks: 45_000, insurance_kopecks: 1_500, cod_fee_kopecks: null },
  options_not_priced: [{ option: 'cod', reason: 'not_quoted' }],
  delivery_date_min: '2026-12-03',
  delivery_date_max: '2026-12-05',
  customer_price_kopecks: 56_000,
});
const cdek = quoteRate({ ...base, carrier: 'cdek', carrier_name: 'СДЭК', delivery_type: 'pickup_point' });
const words = { base: 'тариф', insurance: 'страховка', cod: 'комиссия за НП' } as const;
const nameOf = carrierNamer([], 'ru');
const delivery = (t: string): string => (t === 'terminal' ? 'терминал' : 'ПВЗ');

const point: PickupPoint = {
  carrier: 'cdek',
  code: 'KAZ115',
  kind: 'pvz',
  name: 'Садовая',
  address: 'Казань, ул. Садовая, 25',
  hours: 'Пн-Пт 10:00-20:00',
  lat: null,
  lon: null,
  distance_km: 0.4,
  max_weight_grams: 30_000,
  max_dimensions_cm: [60, 40, 40],
  cod: true,
  card: true,
};

describe('fees and the customer price', () => {
  it('a fee column only where it was asked for and some rate names it apart', () => {
    const asked = { declared_value_kopecks: 500_000, cod_kopecks: 250_000 };
    expect(feeColumns([dellin, cdek], asked)).toEqual(['insurance']);
    expect(feeColumns([cdek], asked)).toEqual([]);
    expect(feeColumns([{ ...base }], asked)).toEqual([]);
    // Not asked: a carrier that insures by default keeps the plain table (its part is in the tooltip).
    expect(feeColumns([dellin, cdek], { declared_value_kopecks: 0 })).toEqual([]);
    expect(feeColumns([dellin], null)).toEqual([]);
  });

  it('the parts add up in words; a price given whole has none', () => {
    expect(breakdownText(dellin, 'ru', (k) => words[k])).toBe(
      'тариф 450,00\u00a0₽ + страховка 15,00\u00a0₽ = 465,00\u00a0₽',
    );
    expect(breakdownText(cdek, 'ru', (k) => words[k])).toBeNull();
    expect(breakdownText(base, 'ru', (k) => words[k])).toBeNull();
  });

  it('the customer’s price where a rule applies, the carrier’s otherwise', () => {
    expect(hasCustomerPrices([cdek, dellin])).toBe(true);
    expect(hasCustomerPrices([cdek, base])).toBe(false);
    expect(copiedPrice(dellin, true)).toBe(56_000);
    expect(copiedPrice(cdek, true)).toBe(46_500);
    expect(copiedPrice(dellin, false)).toBe(46_500);
  });
});

describe('copied text and columns', () => {
  const pointOf = (r: { carrier: string }): string | undefined =>
    r.carrier === 'cdek' ? `пункт выдачи ${point.code}, ${point.address}` : undefined;

  it('the dates follow the days; the chosen point follows the price', () => {
    expect(rateAsText(dellin, nameOf, delivery, 'ru')).toBe(
      'Деловые Линии — Автоперевозка — терминал — 5–7\u00a0дн. (3–5\u00a0декабря) — 465,00\u00a0₽',
    );
    expect(rateAsText(cdek, nameOf, delivery, 'ru', undefined, undefined, { pointOf })).toBe(
      'СДЭК — Автоперевозка — ПВЗ — 5–7\u00a0дн. — 465,00\u00a0₽ — пункт выдачи KAZ115, Казань, ул. Садовая, 25',
    );
    expect(rateAsText(dellin, nameOf, delivery, 'ru', undefined, undefined, { customer: true })).toContain(
      '560,00\u00a0₽',
    );
  });

  it('trailing columns for the customer’s price and the point; the first five stay', () => {
    const tsv = resultsAsTsv([dellin, cdek], {
      headers: ['Перевозчик', 'Тариф', 'Доставка', 'Срок, дн.', 'Цена, ₽'],
      nameOf,
      deliveryLabel: delivery,
      heading: 'Москва → Казань',
      decimal: ',',
      customer: { header: 'Цена клиента, ₽' },
      points: { header: 'Пункт выдачи', of: pointOf },
    });
    const lines = tsv.split('\r\n').map((l) => l.split('\t'));
    expect(lines[1]).toEqual([
      'Перевозчик',
      'Тариф',
      'Доставка',
      'Срок, дн.',
      'Цена, ₽',
      'Цена клиента, ₽',
      'Пункт выдачи',
    ]);
    expect(lines[2]).toEqual(['Деловые Линии', 'Автоперевозка', 'терминал', '5–7', '465,00', '560,00', '']);
    expect(lines[3]!.slice(5)).toEqual(['', 'пункт выдачи KAZ115, Казань, ул. Садовая, 25']);
  });
});

describe('pickup points', () => {
  it('a point-delivered rate has points; the query carries the asked boxes and COD', () => {
    expect(hasPoints(cdek)).toBe(true);
    expect(hasPoints({ delivery_type: 'post_office' })).toBe(true);
    expect(hasPoints(dellin)).toBe(false);
    const box = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };
    expect(
      pointsQuery('cdek', {
        from: { city: 'Москва' },
        to: { city: 'Казань' },
        parcel: box,
        cod_kopecks: 250_000,
      }),
    ).toEqual({
      carrier: 'cdek',
      to: { city: 'Казань' },
      places: [{ ...box, count: 1 }],
      cod_kopecks: 250_000,
      limit: 50,
    });
    expect(
      pointsQuery('cdek', {
        from: { city: 'Москва' },
        to: { city: 'Казань' },
        places: [{ ...box, count: 3 }],
      }).places,
    ).toEqual([{ ...box, count: 3 }]);
  });

  it('limits as published; none published is said, not read as unlimited', () => {
    const w = { weight: (x: string) => `до ${x}`, dims: (x: string) => `до ${x} см` };
    expect(pointLimits(point, 'ru', w)).toBe('до 30\u00a0кг · до 60×40×40 см');
    expect(pointLimits({ ...point, max_weight_grams: null, max_dimensions_cm: null }, 'ru', w)).toBeNull();
  });
});
