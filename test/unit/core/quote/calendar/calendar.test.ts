// The production calendar (#21 item 3): the shipped decreed years day by day where it matters, the Labor Code
// rule for a year without a decree, an imported year overriding a shipped one, and the refusal of a file whose
// lists cannot be a five-day week's.
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  calendarFromSetting,
  laborCodeYear,
  ProductionCalendar,
  reduceYearFile,
  SHIPPED_CALENDAR,
} from '../../../../../core/quote/calendar/calendar';
import { SHIPPED_YEARS } from '../../../../../core/quote/calendar/data';
import { CalendarYearFile } from '../../../../../core/contract/operations/calendar';

const cal = SHIPPED_CALENDAR;
const range = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addCalendarDays(d, 1)) out.push(d);
  return out;
};
const daysOffIn = (c: ProductionCalendar, from: string, to: string) =>
  range(from, to).filter((d) => c.isDayOff(d));

describe('the shipped years', () => {
  it.each([2025, 2026, 2027])('%i has the 247 working days its decree counts', (year) => {
    expect(cal.workingDaysIn(year)).toBe(247);
    expect(cal.year(year).status).toBe('decreed');
  });

  it('cites a decree with its number and date for every year', () => {
    expect(SHIPPED_YEARS.map((y) => [y.year, y.source.number, y.source.date])).toEqual([
      [2025, '1335', '2024-10-04'],
      [2026, '1466', '2025-09-24'],
      [2027, '1187', '2026-09-17'],
    ]);
    for (const y of SHIPPED_YEARS) {
      expect(y.source.title).toContain(`№ ${y.source.number}`);
      for (const day of [...Object.keys(y.daysOff), ...Object.keys(y.workingDays)])
        expect(day.startsWith(`${y.year}-`), day).toBe(true);
    }
  });

  it('May 2025: 1–4 and 8–11 off (2 May moved from 4 January, 8 May from 23 February)', () => {
    expect(daysOffIn(cal, '2025-04-30', '2025-05-12')).toEqual([
      '2025-05-01',
      '2025-05-02',
      '2025-05-03',
      '2025-05-04',
      '2025-05-08',
      '2025-05-09',
      '2025-05-10',
      '2025-05-11',
    ]);
  });

  it('May 2026: 9 May on a Saturday moves its day off to Monday the 11th', () => {
    expect(daysOffIn(cal, '2026-05-01', '2026-05-12')).toEqual([
      '2026-05-01',
      '2026-05-02',
      '2026-05-03',
      '2026-05-09',
      '2026-05-10',
      '2026-05-11',
    ]);
  });

  it('New Year 2025/2026: 31 December to 11 January off, 12 January the first working day', () => {
    expect(range('2025-12-31', '2026-01-11').every((d) => cal.isDayOff(d))).toBe(true);
    expect(cal.isDayOff('2025-12-30')).toBe(false);
    expect(cal.isDayOff('2026-01-12')).toBe(false);
    expect(cal.nextWorkingDay('2025-12-31')).toBe('2026-01-12');
  });

  it('working Saturdays: 1 November 2025 and 20 February 2027 are worked, the Monday after them is off', () => {
    expect(cal.isDayOff('2025-11-01')).toBe(false);
    expect(daysOffIn(cal, '2025-11-01', '2025-11-05')).toEqual(['2025-11-02', '2025-11-03', '2025-11-04']);
    expect(cal.isDayOff('2027-02-20')).toBe(false);
    expect(cal.isDayOff('2027-02-21')).toBe(true);
    expect(daysOffIn(cal, '2027-02-19', '2027-02-24')).toEqual(['2027-02-21', '2027-02-22', '2027-02-23']);
    // An ordinary Saturday stays a day off.
    expect(cal.isDayOff('2025-11-08')).toBe(true);
  });

  it('counts working days over a working Saturday and skips holidays', () => {
    // Friday 19 Feb 2027 + 1 working day = the working Saturday; + 2 = Wednesday 24th (21–23 off).
    expect(cal.addWorkingDays('2027-02-19', 1)).toBe('2027-02-20');
    expect(cal.addWorkingDays('2027-02-19', 2)).toBe('2027-02-24');
    expect(cal.addWorkingDays('2026-12-30', 1)).toBe('2027-01-11');
    expect(cal.addWorkingDays('2026-12-30', 0)).toBe('2026-12-30');
  });
});

describe('a year without a decree (provisional)', () => {
  it('follows the Labor Code: weekend holidays move to the next working day, except in January', () => {
    const y = laborCodeYear(2028);
    expect(y.status).toBe('provisional');
    // 2028: 1–2 Jan are Sat–Sun (not moved: the decree does that), 23 Feb Wed, 8 Mar Wed, 1 May Mon,
    // 9 May Tue, 12 Jun Mon, 4 Nov Sat → Mon 6 Nov.
    expect([...y.weekdayDaysOff].sort()).toEqual([
      '2028-01-03',
      '2028-01-04',
      '2028-01-05',
      '2028-01-06',
      '2028-01-07',
      '2028-02-23',
      '2028-03-08',
      '2028-05-01',
      '2028-05-09',
      '2028-06-12',
      '2028-11-06',
    ]);
    expect(cal.year(2028).status).toBe('provisional');
    expect(cal.isDayOff('2028-11-06')).toBe(true);
  });

  it('gives 2026 by the rule alone without the decree’s two January moves', () => {
    const rule = laborCodeYear(2026);
    expect(rule.weekdayDaysOff.has('2026-03-09')).toBe(true);
    expect(rule.weekdayDaysOff.has('2026-05-11')).toBe(true);
    expect(rule.weekdayDaysOff.has('2026-01-09')).toBe(false);
    expect(rule.weekdayDaysOff.has('2026-12-31')).toBe(false);
  });
});

describe('an imported year', () => {
  const file = (over: Partial<CalendarYearFile> = {}) =>
    CalendarYearFile.parse({
      year: 2027,
      source: 'test: 2027 with 11 January off too',
      days_off: [...Object.keys(SHIPPED_YEARS[2]!.daysOff), '2027-01-11'],
      working_days: ['2027-02-20'],
      ...over,
    });

  it('overrides the shipped year, and only that year', () => {
    const r = reduceYearFile(file(), '2026-11-27T10:00:00.000Z');
    if (!r.ok) throw new Error(r.error);
    expect(r.workingDays).toBe(246);
    const c = new ProductionCalendar({ '2027': r.stored });
    expect(c.year(2027)).toMatchObject({ status: 'imported', source: 'test: 2027 with 11 January off too' });
    expect(c.isDayOff('2027-01-11')).toBe(true);
    expect(SHIPPED_CALENDAR.isDayOff('2027-01-11')).toBe(false);
    expect(c.nextWorkingDay('2026-12-31')).toBe('2027-01-12');
    expect(c.year(2026).status).toBe('decreed');
  });

  it('reads a file that lists every weekend among its days off the same as one that lists none', () => {
    const weekends = range('2027-01-01', '2027-12-31').filter(
      (d) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()) && d !== '2027-02-20',
    );
    const full = reduceYearFile(file({ days_off: [...file().days_off, ...weekends] }), 't');
    const short = reduceYearFile(file(), 't');
    expect(full).toEqual(short);
  });

  it('is read from the setting’s text, once per text', () => {
    const r = reduceYearFile(file(), 't');
    if (!r.ok) throw new Error(r.error);
    const text = JSON.stringify({ '2027': r.stored });
    expect(calendarFromSetting(text)).toBe(calendarFromSetting(text));
    expect(calendarFromSetting(text).isDayOff('2027-01-11')).toBe(true);
    expect(calendarFromSetting('{}').isDayOff('2027-01-11')).toBe(false);
  });

  it('refuses lists that cannot be a five-day week (swapped, or a month missing)', () => {
    const swapped = reduceYearFile(
      file({ days_off: range('2027-03-01', '2027-06-30').filter((d) => !SHIPPED_CALENDAR.isDayOff(d)) }),
      't',
    );
    expect(swapped).toEqual({
      ok: false,
      error: expect.stringMatching(/^2027 would have \d+ working days; a five-day week has 230–260/),
    });
  });

  it('refuses dates of another year and a day both off and worked (the file schema)', () => {
    const other = CalendarYearFile.safeParse({ year: 2027, source: 's', days_off: ['2026-12-31'] });
    expect(other.error?.issues[0]?.message).toBe('2026-12-31 is not in 2027');
    const both = CalendarYearFile.safeParse({
      year: 2027,
      source: 's',
      days_off: ['2027-02-20'],
      working_days: ['2027-02-20'],
    });
    expect(both.error?.issues[0]?.message).toBe('2027-02-20 is both a day off and a working day');
    expect(CalendarYearFile.safeParse({ year: 2027, source: '', days_off: [] }).success).toBe(false);
  });
});

describe('addWorkingDays over every day of the shipped years', () => {
  it('lands on a working day with exactly n working days after the start', () => {
    for (const start of range('2025-01-01', '2027-11-30')) {
      for (const n of [0, 1, 2, 5, 10]) {
        const end = cal.addWorkingDays(start, n);
        const counted = range(addCalendarDays(start, 1), end).filter((d) => !cal.isDayOff(d)).length;
        expect(counted, `${start} + ${n}`).toBe(n);
        if (n > 0) expect(cal.isDayOff(end), `${start} + ${n}`).toBe(false);
      }
    }
  });
});
