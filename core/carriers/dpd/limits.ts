// DPD's parcel limits (audit DP10). No DPD Russia source with service limits was found: not in protocols.md or
// verified-2026.md, not among the stored pages and docs (searched for dpd.ru service pages), not in the DPD
// Russia SDKs and plugins of the code index. DPD Russia's API gives limits only per pickup point, in
// geography2 getParcelShops `limits{maxShipmentWeight, maxWeight, maxLength, maxWidth, maxHeight, dimensionSum}`
// (the captured answer, DP-IPOL log c2951059…, lists points from 10 kg / 40 cm up to a depot taking 1000 kg /
// 350 cm, which serves DPD MAX), never per service. So the figures stay DPDgroup's parcel standard for DPD
// Classic, which DPD Russia's products were built on: "maksymalna waga jednej paczki: 31,5 kg", "maksymalna
// długość: 175 cm (najdłuższy bok)", "2 x długość + 2 x szerokość + wysokość <= 300 cm" (dpd.com/pl, "Sposób
// wysyłki — zalecenia dodatkowe", the international DPD Classic parcel; the same page gives Poland's own
// domestic parcel 50 kg and 150 cm, so these figures differ by country). A parcel over them never reaches DPD:
// the platform answers exceeds_limits (a 900 kg pallet is freight, not a DPD parcel). Unverified, and marked so
// in data below; docs/carriers.md says to check them live first.
import type { CarrierLimits } from '../limits';

export const DPD_LIMITS: CarrierLimits = {
  maxWeightGrams: 31_500,
  maxLengthCm: 175,
  maxLengthPlusGirthCm: 300,
};

/**
 * Why DPD_LIMITS are not DPD Russia's own published figures (see above), in both UI languages. The descriptor
 * carries it, and the Carriers screen's card says so («лимиты не подтверждены»), so a clerk told "parcel
 * exceeds carrier limits" by DPD knows the limit is ours, not DPD's. It goes only with a DPD Russia source or
 * a live check of a 31 kg / 32 kg parcel and a 170 cm side (docs/carriers.md, DPD, "Live check").
 */
export const DPD_LIMITS_UNVERIFIED_REASON = {
  ru: 'Лимиты DPD (31,5 кг, 175 см, длина + обхват 300 см) взяты из стандарта DPDgroup (DPD Польша): DPD Россия своих не публикует. Проверьте вес 31–32 кг и сторону 170 см на тестовом сервере DPD.',
  en: 'DPD limits (31.5 kg, 175 cm, length + girth 300 cm) are DPDgroup’s standard (DPD Poland): DPD Russia publishes none. Check a 31–32 kg parcel and a 170 cm side on DPD’s test host.',
} as const;
