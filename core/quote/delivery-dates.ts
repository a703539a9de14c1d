// The expected delivery dates of a rate (#21): its days counted from the ship date, the carrier's kind of days
// over the Russian production calendar, after the carrier's cut-off hour.
// SKELETON (issue-21): the dates helper replaces the body with the production calendar; the signature stays.
import type { DaysKind } from '../contract/quote-ext';
import { moscowDate, moscowHour } from '../util/moscow-date';

export interface DayRules {
  kind: DaysKind;
  /** Hour of day (Moscow, 0–24) after which a parcel handed over today leaves the next working day; 24: none. */
  cutoffHour: number;
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
  const today = moscowDate(input.now);
  const late = input.requested === null && moscowHour(input.now) >= input.rules.cutoffHour;
  const ship = input.requested ?? (late ? addDays(today, 1) : today);
  const at = (days: number | null): string | null => (days === null ? null : addDays(ship, days));
  return { ship_date: ship, delivery_date_min: at(input.daysMin), delivery_date_max: at(input.daysMax) };
}

function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}
