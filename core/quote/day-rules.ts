// Each carrier's kind of days and cut-off hour (#21 item 3): its settings carriers.<code>.days_kind and
// carriers.<code>.cutoff, which start from what its descriptor declares (core/carriers/<code>/descriptor.ts,
// `days`) and an admin may change; and the production calendar with the imported years (calendar.imported).
// A carrier without such settings (a rate card) counts calendar days and has no cut-off: its CSV says nothing
// of either (docs/carriers.md, "Delivery dates").
import { cutoffHour } from '../settings/carrier-settings';
import { isSettingName, type SettingName } from '../settings/schema';
import { calendarFromSetting } from './calendar/calendar';
import type { DayRules } from './delivery-dates';

/** What the rules are read from: the service's settings (SettingsView). */
export interface DaySettings {
  get(name: SettingName): string;
}

export function dayRulesFor(carrier: string, settings: DaySettings): DayRules {
  const calendar = calendarFromSetting(settings.get('calendar.imported'));
  const kind = `carriers.${carrier}.days_kind`;
  const cutoff = `carriers.${carrier}.cutoff`;
  return {
    kind: isSettingName(kind) && settings.get(kind) === 'working' ? 'working' : 'calendar',
    cutoffHour: isSettingName(cutoff) ? cutoffHour(settings.get(cutoff)) : 24,
    calendar,
  };
}
