// Dellin's parcel limits. Dellin carries freight: the sources publish no ceiling for auto (LTL) freight, only
// the thresholds above which a place is oversized and costs more, "auto over 100 kg or any side over 3 m"
// (verified-2026 §4.5, DL-PD's docstring mirroring dev.dellin.ru), and the `small` type's 30 kg /
// 0.54×0.39×0.39 m, which RateDesk does not quote. So no size limit is declared, and the weight envelope is
// /v1's own maximum (MAX_WEIGHT_GRAMS, 1000 kg): the platform never refuses a shipment Dellin would carry,
// such as a 900 kg 300×300×300 cm pallet (oversized, priced at terminal rates). What a terminal cannot take,
// Dellin says itself (error 180003, mapped to no service).
import { MAX_WEIGHT_GRAMS } from '../../contract/v1';
import type { CarrierLimits } from '../limits';

export const DELLIN_LIMITS: CarrierLimits = { maxWeightGrams: MAX_WEIGHT_GRAMS };
