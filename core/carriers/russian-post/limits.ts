// Russian Post's published parcel limits. protocols.md §1 has none; the figures are Russian Post's own, as a
// Russian Post calculator extension quotes them from pochta.ru (code-search id 16154237509): "Посылка до
// 20 кг — сумма измерений трех сторон не более 300 см"; "EMS — до 31,5 кг (по России), сумма длины и периметра
// наибольшей стороны не более 300 см, длина, ширина, высота не более 150 см"; "Бизнес курьер — 31,5 кг, любая
// из сторон не более 150 см". Per-product weights are those of objects.ts (product names in public plugin
// tables), kept in one place with the simulator.
import type { CarrierLimits, ParcelLimits } from '../limits';
import { POST_OBJECTS } from './objects';

/** Any side of any product: EMS's and the courier products' 150 cm, the largest Russian Post takes. */
const MAX_SIDE_CM = 150;
/** Parcels: length + width + height; heavier or larger goes by freight, not by post. */
const MAX_SUM_OF_SIDES_CM = 300;
/** EMS measures length + girth instead (pochta.ru, above). */
const EMS_LENGTH_PLUS_GIRTH_CM = 300;

function productLimits(code: number, maxWeightGrams: number): ParcelLimits {
  // EMS (7030) is the one product whose size rule is published on its own.
  if (code === 7030) {
    return { maxWeightGrams, maxLengthCm: MAX_SIDE_CM, maxLengthPlusGirthCm: EMS_LENGTH_PLUS_GIRTH_CM };
  }
  return { maxWeightGrams, maxLengthCm: MAX_SIDE_CM, maxSumOfSidesCm: MAX_SUM_OF_SIDES_CM };
}

export const RUSSIAN_POST_LIMITS: CarrierLimits = {
  // The envelope: the heaviest product (EMS and Курьер онлайн, 31.5 kg) and the largest size any product takes.
  maxWeightGrams: Math.max(...POST_OBJECTS.map((o) => o.maxWeightGrams)),
  maxLengthCm: MAX_SIDE_CM,
  maxSumOfSidesCm: MAX_SUM_OF_SIDES_CM,
  // Keyed by object code: the plain, the declared-value and the declared-value-and-COD variant of each product.
  services: Object.fromEntries(
    POST_OBJECTS.flatMap((o) => {
      const limits = productLimits(o.code, o.maxWeightGrams);
      return [
        [String(o.code), limits],
        [String(o.declaredValueCode), limits],
        [String(o.codCode), limits],
      ];
    }),
  ),
};

/** The limits of one product (any of its variants' codes); the envelope for a product we do not list. */
export function productLimitsOf(objectCode: number): ParcelLimits {
  return RUSSIAN_POST_LIMITS.services?.[String(objectCode)] ?? RUSSIAN_POST_LIMITS;
}
