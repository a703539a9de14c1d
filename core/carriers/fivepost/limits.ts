// 5Post's parcel limits are the cells of its points: `cellLimits` per point in the catalogue (mm and mg), which
// the quote checks point by point. The envelope declared here is the largest cell the sources show: 15 kg
// (`maxWeight` 15000000 mg, "15000000 means 15 kg", verified-2026 §8.3) and a longest side of 60 cm
// (`maxCellHeight` 600 mm in the catalogue example, protocols.md §8.3). A heavier or longer parcel fits no
// 5Post point, so the platform answers exceeds_limits without reading the catalogue.
import type { CarrierLimits } from '../limits';

export const FIVEPOST_LIMITS: CarrierLimits = {
  maxWeightGrams: 15_000,
  maxLengthCm: 60,
};
