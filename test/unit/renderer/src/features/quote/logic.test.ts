import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../../../../core/contract/v1';
import {
  bestOf,
  buildShipment,
  compareRates,
  EMPTY_DRAFT,
  nextSort,
  paretoFront,
  parseSort,
  rateAsText,
  rateKey,
  resultsAsText,
  restoreDraft,
  sortedOrder,
  sortRates,
  swapPlaces,
  type QuoteDraft,
} from '../../../../../../renderer/src/features/quote/logic';
import { carrierNamer } from '../../../../../../renderer/src/lib/carrier-names';
import { NBSP } from '../../../../../../renderer/src/lib/format';

function rate(
  carrier: string,
  code: string,
  price: number,
  min: number | null,
  max: number | null,
  type: Rate['delivery_type'] = 'pickup_point',
): Rate {
  return {
    carrier,
    carrier_name: carrier === 'cdek' ? 'СДЭК' : 'Почта России',
    service_code: code,
    service_name: `Тариф ${code}`,
    delivery_type: type,
    price_kopecks: price,
    currency: 'RUB',
    days_min: min,
    days_max: max,
    price_type: 'public',
  };
}

const A = rate('cdek', '136', 41200, 2, 3);
const B = rate('russian-post', '4', 44850, 4, 6, 'post_office');
const C = rate('cdek', '480', 112000, 1, 2, 'door');
const D = rate('cdek', '137', 50000, 3, 4, 'door'); // dearer and slower than A: dominated
const E = rate('russian-post', '47', 41200, 5, 7, 'post_office'); // as cheap as A but slower: dominated
const U = rate('russian-post', '99', 30000, null, null); // cheapest, unknown days

describe('sorting', () => {
  it('sorts by price, then days', () => {
    expect(sortRates([C, B, A, D], { key: 'price', dir: 'asc' }).map(rateKey)).toEqual([
      'cdek/136',
      'russian-post/4',
      'cdek/137',
      'cdek/480',
    ]);
    expect(sortRates([C, B, A], { key: 'price', dir: 'desc' }).map(rateKey)).toEqual([
      'cdek/480',
      'russian-post/4',
      'cdek/136',
    ]);
    // Equal price: the faster first.
    expect(sortRates([E, A], { key: 'price', dir: 'asc' }).map(rateKey)).toEqual([
      'cdek/136',
      'russian-post/47',
    ]);
  });

  it('sorts by days with unknown days last in both directions', () => {
    expect(sortRates([B, U, A, C], { key: 'days', dir: 'asc' }).map(rateKey)).toEqual([
      'cdek/480',
      'cdek/136',
      'russian-post/4',
      'russian-post/99',
    ]);
    expect(sortRates([B, U, A, C], { key: 'days', dir: 'desc' }).map(rateKey)).toEqual([
      'russian-post/4',
      'cdek/136',
      'cdek/480',
      'russian-post/99',
    ]);
  });

  it('is a total order (antisymmetric, consistent) for any rates', () => {
    const arb = fc.record({
      carrier: fc.constantFrom('cdek', 'russian-post'),
      code: fc.constantFrom('1', '2', '3'),
      price: fc.integer({ min: 0, max: 1000 }),
      min: fc.option(fc.integer({ min: 0, max: 9 })),
      max: fc.option(fc.integer({ min: 0, max: 9 })),
    });
    fc.assert(
      fc.property(
        arb,
        arb,
        fc.constantFrom('price', 'days'),
        fc.constantFrom('asc', 'desc'),
        (x, y, key, dir) => {
          const a = rate(x.carrier, x.code, x.price, x.min, x.max);
          const b = rate(y.carrier, y.code, y.price, y.min, y.max);
          const s = { key, dir } as const;
          expect(Math.sign(compareRates(a, b, s))).toBe(-Math.sign(compareRates(b, a, s)) || 0);
        },
      ),
    );
  });

  it('header clicks flip the direction; stored sorts are validated', () => {
    expect(nextSort({ key: 'price', dir: 'asc' }, 'price')).toEqual({ key: 'price', dir: 'desc' });
    expect(nextSort({ key: 'price', dir: 'desc' }, 'days')).toEqual({ key: 'days', dir: 'asc' });
    expect(parseSort('days:desc')).toEqual({ key: 'days', dir: 'desc' });
    expect(parseSort('weight:up')).toEqual({ key: 'price', dir: 'asc' });
    expect(parseSort(null)).toEqual({ key: 'price', dir: 'asc' });
  });
});

describe('paretoFront', () => {
  it('hides options both slower and dearer than another, and equal-price slower ones', () => {
    expect(paretoFront([A, B, C, D, E]).map(rateKey)).toEqual(['cdek/136', 'cdek/480']);
  });

  it('keeps identical options and the only option', () => {
    const A2 = { ...A, carrier: 'x', service_code: 'same' };
    expect(paretoFront([A, A2]).map(rateKey)).toEqual(['cdek/136', 'x/same']);
    expect(paretoFront([B])).toEqual([B]);
    expect(paretoFront([])).toEqual([]);
  });

  it('treats unknown days as the slowest', () => {
    // U is the cheapest, so nothing dominates it even without days; it dominates nothing with known days.
    expect(paretoFront([U, A, C]).map(rateKey)).toEqual(['russian-post/99', 'cdek/136', 'cdek/480']);
    const Udear = { ...U, price_kopecks: 99999 };
    expect(paretoFront([Udear, A]).map(rateKey)).toEqual(['cdek/136']);
  });

  it('no kept option is dominated, every hidden one is (property)', () => {
    const arb = fc.array(
      fc.record({ p: fc.integer({ min: 1, max: 50 }), d: fc.integer({ min: 0, max: 10 }) }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(arb, (items) => {
        const rates = items.map((x, i) => rate('c', String(i), x.p, x.d, x.d));
        const front = new Set(paretoFront(rates));
        const dominates = (o: Rate, r: Rate): boolean =>
          o.price_kopecks <= r.price_kopecks &&
          o.days_max! <= r.days_max! &&
          (o.price_kopecks < r.price_kopecks || o.days_max! < r.days_max!);
        for (const r of rates) {
          const dominated = rates.some((o) => o !== r && dominates(o, r));
          expect(front.has(r)).toBe(!dominated);
        }
        if (rates.length > 0) expect(front.size).toBeGreaterThan(0);
      }),
    );
  });
});

describe('badges', () => {
  it('marks the cheapest and the fastest, ties included', () => {
    const { cheapest, fastest } = bestOf([A, B, C, E]);
    expect([...cheapest].sort()).toEqual(['cdek/136', 'russian-post/47']);
    expect([...fastest]).toEqual(['cdek/480']);
  });

  it('ignores unknown days for fastest', () => {
    expect([...bestOf([U]).fastest]).toEqual([]);
    expect([...bestOf([U]).cheapest]).toEqual(['russian-post/99']);
    expect(bestOf([]).cheapest.size).toBe(0);
  });
});

describe('row order', () => {
  const sort = { key: 'price', dir: 'asc' } as const;
  it('is always the sorted order, whatever order the rows came in', () => {
    const rates = new Map([B, C, A].map((r) => [rateKey(r), r]));
    expect(sortedOrder(rates.values(), sort)).toEqual(['cdek/136', 'russian-post/4', 'cdek/480']);
  });
});

describe('rateAsText', () => {
  // The rows' own names (no carrier list): what a screen shows before the list arrives.
  const stored = carrierNamer([], 'ru');
  it('reads like the row', () => {
    const label = (t: Rate['delivery_type']): string => (t === 'pickup_point' ? 'ПВЗ' : t);
    expect(rateAsText(A, stored, label, 'ru')).toBe(
      `СДЭК — Тариф 136 — ПВЗ — 2–3${NBSP}дн. — 412,00${NBSP}₽`,
    );
    expect(rateAsText(A, stored, label, 'ru', 'Москва → Казань')).toMatch(/^Москва → Казань: СДЭК/);
  });

  it('puts the sandbox marker first, so a pasted simulated price says what it is', () => {
    const label = (t: Rate['delivery_type']): string => t;
    const text = rateAsText(A, stored, label, 'ru', 'Москва → Казань', '[ПЕСОЧНИЦА]');
    expect(text).toMatch(/^\[ПЕСОЧНИЦА\] Москва → Казань: СДЭК/);
    expect(rateAsText(A, stored, label, 'ru', 'Москва → Казань')).not.toContain('ПЕСОЧНИЦА');
    const table = resultsAsText([A, B], stored, label, 'ru', 'Москва → Казань · 1,2 кг', '[ПЕСОЧНИЦА]');
    expect(table.split('\n')).toEqual([
      '[ПЕСОЧНИЦА] Москва → Казань · 1,2 кг',
      rateAsText(A, stored, label, 'ru'),
      rateAsText(B, stored, label, 'ru'),
    ]);
    expect(resultsAsText([A], stored, label, 'ru', 'X')).toBe(`X\n${rateAsText(A, stored, label, 'ru')}`);
  });
});

describe('the form', () => {
  const filled: QuoteDraft = {
    ...EMPTY_DRAFT,
    fromCity: ' Москва ',
    fromPostal: '101000',
    toCity: 'Казань',
    toPostal: '',
    weight: '1,2',
    length: '30',
    width: '20',
    height: '10',
    value: '1 500,50',
  };

  it('builds a /v1 shipment with exact integers', () => {
    expect(buildShipment(filled)).toEqual({
      ok: true,
      shipment: {
        from: { country: 'RU', city: 'Москва', postal_code: '101000' },
        to: { country: 'RU', city: 'Казань', postal_code: null },
        parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
        declared_value_kopecks: 150050,
      },
    });
    const withCarriers = buildShipment({ ...filled, carriers: ['cdek'] });
    expect(withCarriers.ok && withCarriers.shipment.carriers).toEqual(['cdek']);
  });

  it('lists every wrong field at once', () => {
    expect(buildShipment({ ...EMPTY_DRAFT, fromPostal: '12', value: '1,001' })).toEqual({
      ok: false,
      errors: {
        fromCity: 'empty',
        toCity: 'empty',
        fromPostal: 'format',
        weight: 'empty',
        length: 'empty',
        width: 'empty',
        height: 'empty',
        value: 'precision',
      },
    });
  });

  it('swaps places and restores drafts defensively', () => {
    expect(swapPlaces(filled)).toMatchObject({
      fromCity: 'Казань',
      fromPostal: '',
      toCity: ' Москва ',
      toPostal: '101000',
    });
    expect(restoreDraft(null)).toEqual(EMPTY_DRAFT);
    expect(restoreDraft({ fromCity: 'Тула', weight: 5, carriers: ['cdek', 3] })).toEqual({
      ...EMPTY_DRAFT,
      fromCity: 'Тула',
    });
    expect(restoreDraft(JSON.parse(JSON.stringify(filled)))).toEqual(filled);
  });
});
