// Boxberry's parcel limits. Boxberry's API documentation states none; the figures are the vendor's own
// official WooCommerce plugin's (verified-2026 §3.5, BB-OFF boxberry-for-woocommerce.php L98 and L407): a
// default maximum of 31 000 g, and no quote for an item whose length + width + height exceeds 250 cm. They are
// Boxberry's guards in its own code, not a published table, so no per-variant figures are invented; a
// parcel Boxberry refuses within them comes back as its own "no price" answer.
import type { CarrierLimits } from '../limits';

export const BOXBERRY_LIMITS: CarrierLimits = {
  maxWeightGrams: 31_000,
  maxSumOfSidesCm: 250,
};
