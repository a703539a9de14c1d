// The bounds of the /v1 Shipment as the quote form checks them: the constants of core/contract/v1.ts itself,
// named for the form (no copy that could drift).
import {
  MAX_CITY_LENGTH,
  MAX_DECLARED_VALUE_KOPECKS,
  MAX_DIMENSION_CM,
  MAX_WEIGHT_GRAMS,
} from '../../../core/contract/v1';

export const LIMITS = {
  maxWeightGrams: MAX_WEIGHT_GRAMS,
  maxDimensionCm: MAX_DIMENSION_CM,
  maxDeclaredValueKopecks: MAX_DECLARED_VALUE_KOPECKS,
  maxCityLength: MAX_CITY_LENGTH,
} as const;
