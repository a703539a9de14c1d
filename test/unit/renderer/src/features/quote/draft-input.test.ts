// The quote form as clerks type it (issue #17 item 10): units in the fields, and the light-weight question.
import { describe, expect, it } from 'vitest';
import {
  buildShipment,
  EMPTY_DRAFT,
  isQuestionableWeight,
} from '../../../../../../renderer/src/features/quote/logic';

const FILLED = {
  ...EMPTY_DRAFT,
  fromCity: 'Москва',
  toCity: 'Казань',
  length: '30',
  width: '20',
  height: '10',
};

describe('buildShipment reads units', () => {
  it.each([
    ['1,2 кг', '1500 руб', 1200, 150_000],
    ['1.2 kg', '1 500 ₽', 1200, 150_000],
    ['1200 г', '1500р', 1200, 150_000],
    ['1,2', '', 1200, 0],
  ])('weight «%s», value «%s»', (weight, value, grams, kopecks) => {
    const built = buildShipment({ ...FILLED, weight, value });
    expect(built.ok && built.shipment.parcel?.weight_grams).toBe(grams);
    expect(built.ok && built.shipment.declared_value_kopecks).toBe(kopecks);
  });
});

describe('isQuestionableWeight', () => {
  it('asks about 10 g and less, not more', () => {
    expect(isQuestionableWeight(1)).toBe(true);
    expect(isQuestionableWeight(10)).toBe(true);
    expect(isQuestionableWeight(11)).toBe(false);
    expect(isQuestionableWeight(1200)).toBe(false);
  });
});
