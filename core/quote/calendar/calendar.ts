// The production calendar's reader (#21 item 3): which days are days off, over the shipped years (data.ts),
// the years an admin imported (the setting `calendar.imported`, which wins for its year), and the Labor Code's
// rule alone for any other year (provisional). Dates are plain YYYY-MM-DD calendar days: the calendar is the
// country's, and the caller has already taken the day in Moscow (core/util/moscow-date.ts).
import {
  CALENDAR_WORKING_DAYS_RANGE,
  StoredCalendarYears,
  type CalendarYearFile,
  type CalendarYearStatus,
  type StoredCalendarYear,
} from '../../contract/operations/calendar';
import { LABOR_CODE_HOLIDAYS, SHIPPED_YEARS, type ShippedYear } from './data';

export interface CalendarYear {
  year: number;
  status: CalendarYearStatus;
  source: string;
  /** Days off that are not an ordinary Saturday or Sunday. */
  weekdayDaysOff: ReadonlySet<string>;
  /** Saturdays and Sundays worked. */
  weekendWorkingDays: ReadonlySet<string>;
  importedAt: string | null;
}

const DAY_MS = 86_400_000;

/** The date `days` calendar days after `date` (before, when negative). */
export function addCalendarDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

function yearOf(date: string): number {
  return Number(date.slice(0, 4));
}

function daysOfYear(year: number): string[] {
  const out: string[] = [];
  for (let d = `${year}-01-01`; yearOf(d) === year; d = addCalendarDays(d, 1)) out.push(d);
  return out;
}

/** Working days in a year with these exceptions to the five-day week. */
function workingDaysTotal(year: number, weekdayOff: ReadonlySet<string>, weekendWork: ReadonlySet<string>) {
  return daysOfYear(year).filter((d) => (isWeekend(d) ? weekendWork.has(d) : !weekdayOff.has(d))).length;
}

/**
 * A year without data: the Labor Code's holidays, and a holiday on a Saturday or Sunday moved to the next
 * working day — except 1–8 January, whose moves only the decree makes (ст. 112 ч. 2).
 */
export function laborCodeYear(year: number): CalendarYear {
  const holidays = new Set(LABOR_CODE_HOLIDAYS.map((md) => `${year}-${md}`));
  const off = new Set<string>();
  for (const day of [...holidays].sort()) {
    if (!isWeekend(day)) off.add(day);
    else if (!day.slice(5).startsWith('01-')) {
      let moved = addCalendarDays(day, 1);
      while (isWeekend(moved) || holidays.has(moved) || off.has(moved)) moved = addCalendarDays(moved, 1);
      if (yearOf(moved) === year) off.add(moved);
    }
  }
  return {
    year,
    status: 'provisional',
    source: 'Трудовой кодекс РФ, ст. 112 (no decree for this year known)',
    weekdayDaysOff: off,
    weekendWorkingDays: new Set(),
    importedAt: null,
  };
}

function shippedYear(y: ShippedYear): CalendarYear {
  return {
    year: y.year,
    status: 'decreed',
    source: y.source.title,
    weekdayDaysOff: new Set(Object.keys(y.daysOff).filter((d) => !isWeekend(d))),
    weekendWorkingDays: new Set(Object.keys(y.workingDays)),
    importedAt: null,
  };
}

function importedYear(year: number, y: StoredCalendarYear): CalendarYear {
  return {
    year,
    status: 'imported',
    source: y.source,
    weekdayDaysOff: new Set(y.days_off),
    weekendWorkingDays: new Set(y.working_days),
    importedAt: y.imported_at,
  };
}

const SHIPPED = new Map(SHIPPED_YEARS.map((y) => [y.year, shippedYear(y)]));

export function isShippedYear(year: number): boolean {
  return SHIPPED.has(year);
}

/** The calendar over the shipped years and the imported ones (which win for their year). */
export class ProductionCalendar {
  private readonly provisional = new Map<number, CalendarYear>();
  private readonly imported: ReadonlyMap<number, CalendarYear>;

  constructor(imported: StoredCalendarYears = {}) {
    this.imported = new Map(
      Object.entries(imported).map(([y, data]) => [Number(y), importedYear(Number(y), data)]),
    );
  }

  year(year: number): CalendarYear {
    const mine = this.imported.get(year);
    if (mine) return mine;
    const shipped = SHIPPED.get(year);
    if (shipped) return shipped;
    let y = this.provisional.get(year);
    if (!y) this.provisional.set(year, (y = laborCodeYear(year)));
    return y;
  }

  /** Every year with data (shipped or imported), in order; an imported one in place of a shipped one. */
  knownYears(): CalendarYear[] {
    const years = new Set([...SHIPPED.keys(), ...this.imported.keys()]);
    return [...years].sort((a, b) => a - b).map((y) => this.year(y));
  }

  isDayOff(date: string): boolean {
    const y = this.year(yearOf(date));
    return isWeekend(date) ? !y.weekendWorkingDays.has(date) : y.weekdayDaysOff.has(date);
  }

  /** `date` itself when it is a working day, else the next one. */
  nextWorkingDay(date: string): string {
    let d = date;
    // The longest run of days off in any decree is 12 (New Year 2026); 60 is a guard, not a rule.
    for (let i = 0; i < 60 && this.isDayOff(d); i++) d = addCalendarDays(d, 1);
    return d;
  }

  /** The day `days` working days after `date` (the day itself not counted). */
  addWorkingDays(date: string, days: number): string {
    let d = date;
    for (let left = days; left > 0;) {
      d = addCalendarDays(d, 1);
      if (!this.isDayOff(d)) left--;
    }
    return d;
  }

  workingDaysIn(year: number): number {
    const y = this.year(year);
    return workingDaysTotal(year, y.weekdayDaysOff, y.weekendWorkingDays);
  }
}

/** The shipped calendar alone (no imports): tests, and a caller without settings. */
export const SHIPPED_CALENDAR = new ProductionCalendar();

let cached: { text: string; calendar: ProductionCalendar } | undefined;

/**
 * The calendar for the setting's current text, parsed once per text: quotes read it on every rate. A text
 * that does not parse (it cannot: the setting's schema checks it on every write) gives the shipped calendar.
 */
export function calendarFromSetting(text: string): ProductionCalendar {
  if (cached?.text === text) return cached.calendar;
  const parsed = parseStoredYears(text);
  const calendar = parsed ? new ProductionCalendar(parsed) : SHIPPED_CALENDAR;
  cached = { text, calendar };
  return calendar;
}

export function parseStoredYears(text: string): StoredCalendarYears | undefined {
  if (text.trim() === '') return {};
  try {
    const r = StoredCalendarYears.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A year's file reduced to what differs from the five-day week, or why it is refused: a file may list the
 * weekends among its days off or not, both mean the same.
 */
export function reduceYearFile(
  file: CalendarYearFile,
  importedAt: string,
): { ok: true; stored: StoredCalendarYear; workingDays: number } | { ok: false; error: string } {
  const off = new Set(file.days_off);
  const work = new Set(file.working_days);
  const weekdayOff = [...off].filter((d) => !isWeekend(d)).sort();
  const weekendWork = [...work].filter((d) => isWeekend(d)).sort();
  const total = workingDaysTotal(file.year, new Set(weekdayOff), new Set(weekendWork));
  const [min, max] = CALENDAR_WORKING_DAYS_RANGE;
  if (total < min || total > max) {
    return {
      ok: false,
      error:
        `${file.year} would have ${total} working days; a five-day week has ${min}–${max} ` +
        '(are days_off and working_days swapped, or a month missing?)',
    };
  }
  return {
    ok: true,
    workingDays: total,
    stored: { source: file.source, days_off: weekdayOff, working_days: weekendWork, imported_at: importedAt },
  };
}
