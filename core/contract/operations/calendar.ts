// The Russian production calendar (производственный календарь, #21 item 3): the file an admin imports for one
// year (`npm run admin -- calendar import FILE`, the operation calendar:import) and what calendar:info shows.
// The shipped years and the reader are core/quote/calendar/. Renderer-safe: zod and constants only.
import { z } from 'zod';
import { NoInput } from './common';

const IsoDay = z.iso.date('a date is YYYY-MM-DD');

/**
 * A five-day week has 247 ± 2 working days a year in every decree since 2010 (2020's decree too: the spring's
 * "non-working days" were never in the production calendar). A file outside 230–260 has its lists swapped, a
 * month missing or another year's dates: refused rather than trusted.
 */
export const CALENDAR_WORKING_DAYS_RANGE = [230, 260] as const;
export const CALENDAR_YEARS = [2000, 2100] as const;

/**
 * One year of the calendar as a file (JSON). `days_off`: the days nobody works, weekends included or not —
 * both read the same (a Saturday or Sunday is a day off unless it is in `working_days`); `working_days`: the
 * Saturdays and Sundays made working days by a transfer (перенос). Every date must be in `year`.
 */
export const CalendarYearFile = z
  .strictObject({
    year: z.int().min(CALENDAR_YEARS[0]).max(CALENDAR_YEARS[1]),
    /** Where the year comes from: the decree's number and date, or the publication it was copied from. */
    source: z.string().trim().min(1, 'source is required').max(500),
    days_off: z.array(IsoDay).max(366),
    working_days: z.array(IsoDay).max(366).default([]),
  })
  .superRefine((file, ctx) => {
    for (const key of ['days_off', 'working_days'] as const) {
      file[key].forEach((day, i) => {
        if (!day.startsWith(`${file.year}-`)) {
          ctx.addIssue({ code: 'custom', path: [key, i], message: `${day} is not in ${file.year}` });
        }
      });
    }
    const off = new Set(file.days_off);
    file.working_days.forEach((day, i) => {
      if (off.has(day)) {
        ctx.addIssue({
          code: 'custom',
          path: ['working_days', i],
          message: `${day} is both a day off and a working day`,
        });
      }
    });
  });
export type CalendarYearFile = z.output<typeof CalendarYearFile>;
export type CalendarYearFileInput = z.input<typeof CalendarYearFile>;

/**
 * Where a year comes from: `decreed` (shipped, from the Government's decree), `imported` (an admin's file,
 * overriding a shipped year), `provisional` (no data: weekends and the Labor Code's holidays only).
 */
export const CalendarYearStatus = z.enum(['decreed', 'imported', 'provisional']);
export type CalendarYearStatus = z.output<typeof CalendarYearStatus>;

export const CalendarYearView = z.object({
  year: z.int(),
  status: CalendarYearStatus,
  source: z.string(),
  /** The days off that are not an ordinary Saturday or Sunday (holidays and moved days off). */
  weekday_days_off: z.array(z.string()),
  /** Saturdays and Sundays worked (transfers). */
  weekend_working_days: z.array(z.string()),
  working_days_total: z.int(),
  /** When it was imported (imported years only). */
  imported_at: z.string().nullable(),
  /** An imported year replaces a shipped one of the same year (it is used instead). */
  overrides_shipped: z.boolean(),
});
export type CalendarYearView = z.output<typeof CalendarYearView>;

export const CalendarInfo = z.object({
  /** Every year the calendar holds, shipped or imported, in order. */
  years: z.array(CalendarYearView),
  /** What a year not in `years` is counted with. */
  provisional_rule: z.string(),
});
export type CalendarInfo = z.output<typeof CalendarInfo>;

export const calendarOperations = {
  'calendar:info': { input: NoInput, output: CalendarInfo },
  /**
   * Stores one year (replacing an earlier import of the same year); from the next quote it overrides the
   * shipped year. A bad file is refused whole (OperationError 'invalid').
   */
  'calendar:import': {
    input: CalendarYearFile,
    output: CalendarYearView.extend({ replaced: z.boolean() }),
  },
} as const;

/**
 * The imported years as the setting `calendar.imported` keeps them (JSON): per year its source, its days off
 * that are not a Saturday or Sunday and its Saturdays and Sundays worked — the file's lists reduced to what
 * differs from a plain five-day week, so the setting stays small however the file listed weekends.
 */
export const StoredCalendarYear = z.strictObject({
  source: z.string().min(1).max(500),
  days_off: z.array(IsoDay).max(366),
  working_days: z.array(IsoDay).max(366),
  imported_at: z.string(),
});
export type StoredCalendarYear = z.output<typeof StoredCalendarYear>;
export const StoredCalendarYears = z.record(z.string().regex(/^\d{4}$/), StoredCalendarYear);
export type StoredCalendarYears = z.output<typeof StoredCalendarYears>;
