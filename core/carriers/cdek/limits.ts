// CDEK's published parcel limits, per tariff, as CDEK's own tariff table states them ("Ограничение по весу",
// the appendix of its API documentation). Neither protocols.md nor verified-2026.md covers them; they are
// taken from SDKs that copy that table: a C# SDK's TariffCode doc comments (code-search id 24186823670:
// Посылка "до 30 кг", Экономичная посылка "до 50 кг", E-com Express "до 500 кг", Сборный груз "до 20000 кг",
// Экспресс and Магистральный экспресс "без ограничений по весу") and a WooCommerce plugin's tariff list with
// the same figures in the names ("Посылка склад-склад (до 30 кг)", id 39223640885). CDEK publishes no size
// ceiling for these tariffs, so none is declared: a size that CDEK refuses is its own "no tariff" answer.
import type { CarrierLimits, ParcelLimits } from '../limits';

const PARCEL: ParcelLimits = { maxWeightGrams: 30_000 };
const ECONOMY_PARCEL: ParcelLimits = { maxWeightGrams: 50_000 };
const ECOM_EXPRESS: ParcelLimits = { maxWeightGrams: 500_000 };
const CONSOLIDATED_CARGO: ParcelLimits = { maxWeightGrams: 20_000_000 };

function each(codes: readonly number[], limits: ParcelLimits): Array<[string, ParcelLimits]> {
  return codes.map((code) => [String(code), limits]);
}

export const CDEK_LIMITS: CarrierLimits = {
  // The envelope is the widest published figure: Сборный груз (a delivery-contract tariff, type 2, which the
  // adapter falls back to). Anything heavier no CDEK tariff carries.
  maxWeightGrams: CONSOLIDATED_CARGO.maxWeightGrams,
  services: Object.fromEntries([
    // Посылка склад-склад / склад-дверь / дверь-склад / дверь-дверь, дверь-постамат, склад-постамат.
    ...each([136, 137, 138, 139, 366, 368], PARCEL),
    // Экономичная посылка, the same modes and склад-постамат.
    ...each([231, 232, 233, 234, 376, 378], ECONOMY_PARCEL),
    ...each([291, 293, 294, 295, 509, 510], ECOM_EXPRESS),
    // Сборный груз дверь-дверь / дверь-склад / склад-дверь / склад-склад.
    ...each([748, 749, 750, 751], CONSOLIDATED_CARGO),
  ]),
};
