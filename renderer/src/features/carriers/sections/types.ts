// The props every section of a carrier card takes (CarrierCard.tsx lists the sections).
import type { CarrierView } from '../../../../../core/desk/contract';

/** What every section of a carrier card gets: the carrier, the mode, and a way to report its new view. */
export interface SectionProps {
  carrier: CarrierView;
  sandbox: boolean;
  onChange: (next: CarrierView) => void;
}
