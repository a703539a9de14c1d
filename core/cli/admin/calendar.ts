// calendar info | import: the Russian production calendar the delivery dates are counted over (#21 item 3;
// docs/operations.md, "The production calendar"). A year's file is JSON (the operation's schema says what);
// a bad file prints why on stderr and exits 1, nothing stored.
import type { CalendarYearView } from '../../contract/operations';
import { InputError, readInput, renderTable, type InputBound } from '../admin-io';
import type { Command } from './command';

/** A year's file lists at most every day of the year: far below this. */
const CALENDAR_FILE: InputBound = { bytes: 256 * 1024, what: 'a calendar file' };

function yearsTable(rows: CalendarYearView[]): string {
  return renderTable(rows, [
    { header: 'YEAR', cell: (y) => String(y.year) },
    { header: 'STATUS', cell: (y) => (y.overrides_shipped ? 'imported (over the shipped year)' : y.status) },
    { header: 'WORKING DAYS', cell: (y) => String(y.working_days_total) },
    { header: 'DAYS OFF MON–FRI', cell: (y) => String(y.weekday_days_off.length) },
    { header: 'SAT/SUN WORKED', cell: (y) => y.weekend_working_days.join(', ') || '-' },
    { header: 'SOURCE', cell: (y) => y.source },
  ]);
}

export const calendarCommands: Record<string, Command> = {
  'calendar info': {
    usage: 'calendar info',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const info = await ctx.run('calendar:info');
      return {
        json: info,
        text: `${yearsTable(info.years)}Any other year: ${info.provisional_rule}.\n`,
      };
    },
  },
  'calendar import': {
    usage: 'calendar import FILE',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const path = ctx.args[0]!;
      const text = await readInput({ path }, CALENDAR_FILE);
      let file: unknown;
      try {
        file = JSON.parse(text);
      } catch (error) {
        throw new InputError(
          `${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const year = await ctx.run('calendar:import', file);
      return {
        json: year,
        text:
          `${year.replaced ? 'Replaced' : 'Imported'} the production calendar of ${year.year}` +
          `${year.overrides_shipped ? ' (over the shipped year)' : ''}: ${year.working_days_total} working days, ` +
          `${year.weekday_days_off.length} days off Monday to Friday, ` +
          `${year.weekend_working_days.length} Saturdays or Sundays worked.\n` +
          'Delivery dates use it from the next quote.\n',
      };
    },
  },
};
