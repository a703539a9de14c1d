import { describe, expect, it } from 'vitest';
import {
  MAX_CITY_LENGTH,
  MAX_DECLARED_VALUE_KOPECKS,
  MAX_DIMENSION_CM,
  MAX_WEIGHT_GRAMS,
} from '../../../core/contract/v1';
import { LIMITS } from '../../../renderer/src/lib/limits';

describe('renderer limits', () => {
  it('repeat the /v1 contract bounds exactly', () => {
    expect(LIMITS).toEqual({
      maxWeightGrams: MAX_WEIGHT_GRAMS,
      maxDimensionCm: MAX_DIMENSION_CM,
      maxDeclaredValueKopecks: MAX_DECLARED_VALUE_KOPECKS,
      maxCityLength: MAX_CITY_LENGTH,
    });
  });
});
