import { describe, expect, it } from 'vitest';
import type { ShipmentInput } from '../../../../../../core/contract/v1';
import {
  EMPTY_DRAFT,
  localiseDraft,
  localiseNumber,
  sameShipment,
} from '../../../../../../renderer/src/features/quote/logic';

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

// The kept result's round trip (restoreRun / storableRun) is tested per unavailability kind in persist.test.ts.
