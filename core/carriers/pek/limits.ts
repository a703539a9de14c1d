// PEK's published parcel limits. PEK publishes no company-wide weight or size ceiling for its calculator
// products: limits are per department, from POST /branches/nearestdepartments/ (`maxWeight`,
// `maxWeightOnePlace`, `maxDimension`, `maxVolume`, where 0 means "no limit"; verified-2026.md §5.5, PK-GL
// NearestDepartment). A department that cannot take a cargo is PEK's own answer (the product's `hasError`),
// which reads "no service on this route". So nothing is invented here: the envelope is the /v1 contract's
// own ceiling (1 t, 10 m a side), i.e. no pre-check refuses a pallet PEK may carry. A 900 kg, 300 cm pallet
// goes to PEK and comes back with terminal rates (#11).
import { MAX_WEIGHT_GRAMS } from '../../contract/v1';
import type { CarrierLimits } from '../limits';

export const PEK_LIMITS: CarrierLimits = { maxWeightGrams: MAX_WEIGHT_GRAMS };
