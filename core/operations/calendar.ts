// The production calendar (#21 item 3): what it holds (calendar:info, any clerk) and one year imported over
// the shipped ones (calendar:import, an admin). Imports are kept in the setting `calendar.imported` through
// the store's settings, so a company server's desks all count with the same calendar and its change feed
// reaches every running service before its next quote.
import type { CalendarInfo, CalendarYearView } from '../contract/operations';
import {
  calendarFromSetting,
  isShippedYear,
  parseStoredYears,
  reduceYearFile,
  type CalendarYear,
  type ProductionCalendar,
} from '../quote/calendar/calendar';
import { PROVISIONAL_RULE } from '../quote/calendar/data';
import { SETTINGS } from '../settings/schema';
import type { Store } from '../store/port';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { writeSettings } from './settings';

const SETTING = 'calendar.imported';

async function storedText(store: Store): Promise<string> {
  return (await store.settings.get(SETTING)) ?? SETTINGS[SETTING].default;
}

function view(calendar: ProductionCalendar, y: CalendarYear): CalendarYearView {
  return {
    year: y.year,
    status: y.status,
    source: y.source,
    weekday_days_off: [...y.weekdayDaysOff].sort(),
    weekend_working_days: [...y.weekendWorkingDays].sort(),
    working_days_total: calendar.workingDaysIn(y.year),
    imported_at: y.importedAt,
    overrides_shipped: y.status === 'imported' && isShippedYear(y.year),
  };
}

export const calendarOperations = {
  'calendar:info': {
    needs: 'store',
    run: async ({ store }): Promise<CalendarInfo> => {
      const calendar = calendarFromSetting(await storedText(store));
      return {
        years: calendar.knownYears().map((y) => view(calendar, y)),
        provisional_rule: PROVISIONAL_RULE,
      };
    },
  },

  'calendar:import': {
    needs: 'store',
    run: async ({ store, clock }, file) => {
      const reduced = reduceYearFile(file, clock.now().toISOString());
      if (!reduced.ok) throw new OperationError('invalid', reduced.error);
      // A stored text that no longer parses cannot be: the setting's schema checks every write.
      const years = parseStoredYears(await storedText(store)) ?? {};
      const replaced = Object.hasOwn(years, String(file.year));
      const next = { ...years, [String(file.year)]: reduced.stored };
      await writeSettings(store, clock, [{ name: SETTING, value: JSON.stringify(next) }]);
      const calendar = calendarFromSetting(JSON.stringify(next));
      return { ...view(calendar, calendar.year(file.year)), replaced };
    },
  },
} satisfies AreaOperations<'calendar:info' | 'calendar:import'>;
