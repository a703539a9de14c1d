import { describe, expect, it } from 'vitest';
import type { Rate, ShipmentInput } from '../../../../../../core/contract/v1';
import type { DeskQuoteResult } from '../../../../../../core/desk/contract';
import {
  EMPTY_DRAFT,
  localiseDraft,
  localiseNumber,
  sameShipment,
} from '../../../../../../renderer/src/features/quote/logic';
import { restoreRun, storableRun } from '../../../../../../renderer/src/features/quote/persist';
import { IDLE, runReducer } from '../../../../../../renderer/src/features/quote/run';

describe('numbers follow the UI language', () => {
  it('swaps only the decimal separator, keeping the digits as typed', () => {
    expect(localiseNumber('1,2', 'en')).toBe('1.2');
    expect(localiseNumber('1.2', 'ru')).toBe('1,2');
    expect(localiseNumber('1 500,50', 'en')).toBe('1 500.50');
    expect(localiseNumber('30', 'en')).toBe('30');
    expect(localiseNumber('', 'en')).toBe('');
    // Not a plain decimal: left alone, its error stays visible.
    expect(localiseNumber('1,2,3', 'en')).toBe('1,2,3');
    expect(localiseNumber('abc', 'ru')).toBe('abc');
  });

  it('changes every number field of a draft and nothing else', () => {
    const d = { ...EMPTY_DRAFT, fromCity: 'Москва, Россия', weight: '1,2', length: '12,5', value: '0,5' };
    expect(localiseDraft(d, 'en')).toEqual({ ...d, weight: '1.2', length: '12.5', value: '0.5' });
    expect(localiseDraft(d, 'ru')).toBe(d);
  });
});

const A: ShipmentInput = {
  from: { country: 'RU', city: 'Москва', postal_code: '101000' },
  to: { country: 'RU', city: 'Казань', postal_code: null },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declared_value_kopecks: 0,
};

describe('sameShipment (is the result on screen still the answer?)', () => {
  it('ignores what does not change the question', () => {
    expect(sameShipment(A, { ...A, from: { ...A.from, city: 'москва ' } })).toBe(true);
    expect(sameShipment(A, { ...A, declared_value_kopecks: undefined })).toBe(true);
    expect(sameShipment({ ...A, carriers: ['a', 'b'] }, { ...A, carriers: ['b', 'a'] })).toBe(true);
  });

  it('notices every change that does', () => {
    expect(sameShipment(A, { ...A, parcel: { ...A.parcel, weight_grams: 1300 } })).toBe(false);
    expect(sameShipment(A, { ...A, to: { ...A.to, city: 'Самара' } })).toBe(false);
    expect(sameShipment(A, { ...A, to: { ...A.to, postal_code: '420000' } })).toBe(false);
    expect(sameShipment(A, { ...A, declared_value_kopecks: 100 })).toBe(false);
    expect(sameShipment(A, { ...A, carriers: ['cdek'] })).toBe(false);
  });
});

const rate = (code: string, price: number): Rate => ({
  carrier: 'cdek',
  carrier_name: 'СДЭК',
  service_code: code,
  service_name: code,
  delivery_type: 'door',
  price_kopecks: price,
  currency: 'RUB',
  days_min: 2,
  days_max: 3,
  price_type: 'public',
});

describe('the last result survives a restart', () => {
  const sort = { key: 'price', dir: 'asc' } as const;
  const done = runReducer(
    runReducer(IDLE, { type: 'start', key: 'k', carriers: ['cdek', 'russian-post'], shipment: A }),
    {
      type: 'done',
      key: 'k',
      sort,
      result: {
        request_id: 'r',
        quote_id: 3,
        sandbox: true,
        rates: [rate('b', 500), rate('a', 100)],
        failures: [{ carrier: 'russian-post', kind: 'no_service' }],
      } as DeskQuoteResult,
    },
  );

  it('round-trips through JSON, not listening to any run', () => {
    const stored = JSON.parse(JSON.stringify(storableRun(done)));
    const back = restoreRun(stored, sort);
    expect(back.phase).toBe('done');
    expect(back.key).toBeNull();
    expect(back.order).toEqual(done.order);
    expect(back.carriers).toEqual(done.carriers);
    expect(back.shipment).toEqual(A);
    expect(back.sandbox).toBe(true);
    expect(back.quoteId).toBe(3);
  });

  it('stores nothing but a finished run, and drops anything malformed', () => {
    expect(storableRun(IDLE)).toBeNull();
    expect(restoreRun(null, sort)).toBe(IDLE);
    expect(restoreRun({ v: 99 }, sort)).toBe(IDLE);
    const stored = JSON.parse(JSON.stringify(storableRun(done)));
    expect(restoreRun({ ...stored, rates: [{ carrier: 1 }] }, sort)).toBe(IDLE);
    expect(
      restoreRun({ ...stored, carriers: [{ code: 'x', state: 'unavailable', kind: 'moon' }] }, sort),
    ).toBe(IDLE);
    expect(restoreRun({ ...stored, shipment: { from: 'Москва' } }, sort)).toBe(IDLE);
  });
});
