// 5Post's parcel limits are the cells of its points: `cellLimits` per point in the catalogue (mm and mg), which
// the quote checks point by point and place by place (each place of an order goes into a cell). The envelope
// declared here, per place, is the largest cell the sources show: 25 kg (`maxWeight` 25000000 mg, the
// postamat of the integration guide's §3.2 record, FP-GUIDE 2026; "15000000 means 15 kg", verified-2026 §8.3,
// is the captured one) and a longest side of 60 cm (`maxCellHeight` 600 mm in both). A heavier or longer place
// fits no 5Post point, so the platform answers exceeds_limits without reading the catalogue. 5Post publishes
// no limit of places or total weight per order: none is declared (a multi-place order needs a point with
// `multiplaceDeliveryAllowed`, quote.ts, and is priced by its whole weight).
import type { CarrierLimits } from '../limits';

export const FIVEPOST_LIMITS: CarrierLimits = {
  maxWeightGrams: 25_000,
  maxLengthCm: 60,
};
