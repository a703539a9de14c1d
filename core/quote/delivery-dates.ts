// The expected delivery dates of a rate (#21 item 3): its days counted from the ship date, in the carrier's
// kind of days over the Russian production calendar (core/quote/calendar/), after the carrier's cut-off hour.
//
// The ship date is the day the carrier starts counting from:
// - the date the clerk picked, or today in Moscow (a date already past counts as today: nothing ships
//   yesterday);
// - when that is today and the carrier's cut-off hour has passed, the next day;
// - for a carrier that counts working days, then the next working day when it is a day off: its count does not
//   run on days off, so a parcel handed over on a Saturday or a holiday leaves on the next working day. A
//   carrier that counts calendar days is not moved: its offices and points take parcels on weekends (Russian
//   Post, CDEK, 5Post's shops), and its count already runs over days off.
// delivery_date_min/max = the ship date + days_min/max, counted over working days for a 'working' carrier
// (the ship date itself not counted), calendar days otherwise.
import type { DaysKind } from '../contract/quote-ext';
import { moscowDate, moscowHour } from '../util/moscow-date';
import { addCalendarDays, SHIPPED_CALENDAR, type ProductionCalendar } from './calendar/calendar';

export interface DayRules {
  kind: DaysKind;
  /** Hour of day (Moscow, 0–24) after which a parcel handed over today leaves the next working day; 24: none. */
  cutoffHour: number;
  /** The production calendar with the imported years; absent: the shipped one. */
  calendar?: ProductionCalendar;
}

export interface DeliveryDates {
  ship_date: string;
  delivery_date_min: string | null;
  delivery_date_max: string | null;
}

export function deliveryDates(input: {
  /** The date the clerk picked; null: today. */
  requested: string | null;
  now: Date;
  rules: DayRules;
  daysMin: number | null;
  daysMax: number | null;
}): DeliveryDates {
  const { rules } = input;
  const calendar = rules.calendar ?? SHIPPED_CALENDAR;
  const today = moscowDate(input.now);
  let ship = input.requested !== null && input.requested > today ? input.requested : today;
  if (ship === today && moscowHour(input.now) >= rules.cutoffHour) ship = addCalendarDays(ship, 1);
  if (rules.kind === 'working') ship = calendar.nextWorkingDay(ship);
  const at = (days: number | null): string | null => {
    if (days === null) return null;
    const n = Math.max(0, Math.floor(days));
    return rules.kind === 'working' ? calendar.addWorkingDays(ship, n) : addCalendarDays(ship, n);
  };
  return { ship_date: ship, delivery_date_min: at(input.daysMin), delivery_date_max: at(input.daysMax) };
}
