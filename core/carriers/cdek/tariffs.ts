// CDEK delivery modes (protocols.md §2.6) and what they mean for the buyer: the aggregator's delivery
// type describes the destination side only, because that is what the recipient chooses between.
import type { DeliveryType } from '../../contract/v1';

/** `delivery_mode` → origin/destination, as CDEK numbers them (there is no mode 5). */
export const CDEK_DELIVERY_MODES = {
  1: 'door → door',
  2: 'door → pickup point',
  3: 'pickup point → door',
  4: 'pickup point → pickup point',
  6: 'door → parcel locker',
  7: 'pickup point → parcel locker',
  8: 'parcel locker → door',
  9: 'parcel locker → pickup point',
  10: 'parcel locker → parcel locker',
} as const satisfies Record<number, string>;

/** Parcel lockers (postamats) count as pickup points: the recipient collects the parcel either way. */
export function deliveryTypeForMode(mode: number | undefined): DeliveryType {
  switch (mode) {
    case 1:
    case 3:
    case 8:
      return 'door';
    case 2:
    case 4:
    case 9:
    case 6:
    case 7:
    case 10:
      return 'pickup_point';
    default:
      return 'unknown';
  }
}
