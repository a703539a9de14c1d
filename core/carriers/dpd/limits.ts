// DPD's parcel limits. Neither protocols.md nor verified-2026.md has service limits for DPD Russia (only the
// per-pickup-point `limits{maxWeight, maxLength, …}` of getParcelShops, verified-2026 §6.5), and no Russian
// page with figures was found. The figures are DPDgroup's published network standard for a parcel, which DPD
// Russia's products were built on: "maksymalna waga jednej paczki: 31,5 kg", "maksymalna długość: 175 cm",
// "2 x długość + 2 x szerokość + wysokość <= 300 cm" (dpd.com/pl, "Sposób wysyłki — zalecenia dodatkowe",
// DPD Classic parcel). Confidence low; docs/carriers.md says to check them in the smoke test. A parcel over
// them never reaches DPD: the platform answers exceeds_limits (a 900 kg pallet is freight, not a DPD parcel).
import type { CarrierLimits } from '../limits';

export const DPD_LIMITS: CarrierLimits = {
  maxWeightGrams: 31_500,
  maxLengthCm: 175,
  maxLengthPlusGirthCm: 300,
};
