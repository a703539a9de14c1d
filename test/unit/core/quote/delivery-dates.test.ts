// The delivery dates of a rate (#21 item 3): the ship date (today or the clerk's date, past the cut-off, past
// days off for a working-day carrier) and the days counted from it in the carrier's kind of days over the
// production calendar. Times are Moscow (UTC+3): 15:00Z is 18:00 in Moscow.
import { describe, expect, it } from 'vitest';
import { deliveryDates, type DayRules } from '../../../../core/quote/delivery-dates';
import { ProductionCalendar, reduceYearFile } from '../../../../core/quote/calendar/calendar';
import { SHIPPED_YEARS } from '../../../../core/quote/calendar/data';

const WORKING: DayRules = { kind: 'working', cutoffHour: 24 };
const CALENDAR: DayRules = { kind: 'calendar', cutoffHour: 24 };
const at = (moscow: string): Date => new Date(Date.parse(`${moscow}+03:00`));

function dates(
  rules: DayRules,
  now: string,
  days: [number | null, number | null],
  requested: string | null = null,
) {
  return deliveryDates({ requested, now: at(now), rules, daysMin: days[0], daysMax: days[1] });
}

describe('a May holiday', () => {
  it('working days skip 1–4 May 2025; calendar days run over them', () => {
    expect(dates(WORKING, '2025-04-30T10:00:00', [1, 2])).toEqual({
      ship_date: '2025-04-30',
      delivery_date_min: '2025-05-05',
      delivery_date_max: '2025-05-06',
    });
    expect(dates(CALENDAR, '2025-04-30T10:00:00', [1, 2])).toEqual({
      ship_date: '2025-04-30',
      delivery_date_min: '2025-05-01',
      delivery_date_max: '2025-05-02',
    });
  });

  it('working days skip both May breaks of 2025 (1–4 and 8–11)', () => {
    // Wed 30 Apr + 5 working days: 5, 6, 7, 12, 13 May.
    expect(dates(WORKING, '2025-04-30T10:00:00', [5, 5]).delivery_date_max).toBe('2025-05-13');
  });
});

describe('a New Year week', () => {
  it('a working-day carrier handed a parcel on 30 December 2026 delivers after 11 January', () => {
    expect(dates(WORKING, '2026-12-30T10:00:00', [1, 3])).toEqual({
      ship_date: '2026-12-30',
      delivery_date_min: '2027-01-11',
      delivery_date_max: '2027-01-13',
    });
  });

  it('after the cut-off on 30 December the ship date is the next working day, 11 January', () => {
    const late = { kind: 'working', cutoffHour: 17 } as const;
    expect(dates(late, '2026-12-30T18:00:00', [2, 4])).toEqual({
      ship_date: '2027-01-11',
      delivery_date_min: '2027-01-13',
      delivery_date_max: '2027-01-15',
    });
    // A calendar-day carrier moves past the cut-off only: 31 December.
    expect(dates({ kind: 'calendar', cutoffHour: 17 }, '2026-12-30T18:00:00', [2, 4])).toEqual({
      ship_date: '2026-12-31',
      delivery_date_min: '2027-01-02',
      delivery_date_max: '2027-01-04',
    });
  });
});

describe('a transferred working Saturday', () => {
  it('1 November 2025 is worked: a parcel ships that day and the days run over 2–4 November off', () => {
    expect(dates(WORKING, '2025-11-01T10:00:00', [1, 2])).toEqual({
      ship_date: '2025-11-01',
      delivery_date_min: '2025-11-05',
      delivery_date_max: '2025-11-06',
    });
  });

  it('20 February 2027 counts as a working day; an ordinary Saturday does not', () => {
    expect(dates(WORKING, '2027-02-19T10:00:00', [1, 2])).toMatchObject({
      delivery_date_min: '2027-02-20',
      delivery_date_max: '2027-02-24',
    });
    expect(dates(WORKING, '2027-02-26T10:00:00', [1, 1]).delivery_date_min).toBe('2027-03-01');
  });
});

describe('the cut-off hour', () => {
  const rules: DayRules = { kind: 'working', cutoffHour: 15.5 };
  it('before it, today; from it on, the next (working) day', () => {
    expect(dates(rules, '2026-11-26T15:29:00', [1, 1]).ship_date).toBe('2026-11-26');
    expect(dates(rules, '2026-11-26T15:30:00', [1, 1]).ship_date).toBe('2026-11-27');
    // Friday after the cut-off: Monday.
    expect(dates(rules, '2026-11-27T16:00:00', [1, 1])).toEqual({
      ship_date: '2026-11-30',
      delivery_date_min: '2026-12-01',
      delivery_date_max: '2026-12-01',
    });
  });

  it('is Moscow time whatever the UTC date is', () => {
    // 22:30 UTC on the 26th is 01:30 on the 27th in Moscow: before a 15:30 cut-off of the 27th.
    const d = deliveryDates({
      requested: null,
      now: new Date('2026-11-26T22:30:00Z'),
      rules,
      daysMin: 0,
      daysMax: 0,
    });
    expect(d.ship_date).toBe('2026-11-27');
  });

  it('applies to a requested date that is today, never to a later one', () => {
    expect(dates(rules, '2026-11-26T16:00:00', [1, 1], '2026-11-26').ship_date).toBe('2026-11-27');
    expect(dates(rules, '2026-11-26T16:00:00', [1, 1], '2026-12-02').ship_date).toBe('2026-12-02');
  });
});

describe('a requested ship date', () => {
  it('on a holiday: a working-day carrier takes it on the next working day, a calendar-day one that day', () => {
    expect(dates(WORKING, '2026-11-26T10:00:00', [2, 3], '2026-01-07')).toMatchObject({
      ship_date: '2026-11-26',
    });
    expect(dates(WORKING, '2025-12-01T10:00:00', [2, 3], '2026-01-07')).toEqual({
      ship_date: '2026-01-12',
      delivery_date_min: '2026-01-14',
      delivery_date_max: '2026-01-15',
    });
    expect(dates(CALENDAR, '2025-12-01T10:00:00', [2, 3], '2026-01-07')).toEqual({
      ship_date: '2026-01-07',
      delivery_date_min: '2026-01-09',
      delivery_date_max: '2026-01-10',
    });
  });

  it('in the past counts from today', () => {
    expect(dates(CALENDAR, '2026-11-26T10:00:00', [1, 1], '2026-11-01').ship_date).toBe('2026-11-26');
  });
});

describe('kinds and missing days', () => {
  it('calendar vs working over one weekend', () => {
    // Thursday 26 Nov 2026 + 3.
    expect(dates(CALENDAR, '2026-11-26T10:00:00', [3, 3]).delivery_date_min).toBe('2026-11-29');
    expect(dates(WORKING, '2026-11-26T10:00:00', [3, 3]).delivery_date_min).toBe('2026-12-01');
  });

  it('no days, no dates; 0 days is the ship date', () => {
    expect(dates(WORKING, '2026-11-26T10:00:00', [null, null])).toEqual({
      ship_date: '2026-11-26',
      delivery_date_min: null,
      delivery_date_max: null,
    });
    expect(dates(WORKING, '2026-11-28T10:00:00', [0, null])).toEqual({
      ship_date: '2026-11-30',
      delivery_date_min: '2026-11-30',
      delivery_date_max: null,
    });
  });
});

describe('an imported year', () => {
  it('overrides the shipped one in the count', () => {
    const r = reduceYearFile(
      {
        year: 2027,
        source: 'test: 11 and 12 January off too',
        days_off: [...Object.keys(SHIPPED_YEARS[2]!.daysOff), '2027-01-11', '2027-01-12'],
        working_days: ['2027-02-20'],
      },
      't',
    );
    if (!r.ok) throw new Error(r.error);
    const calendar = new ProductionCalendar({ '2027': r.stored });
    expect(dates({ ...WORKING, calendar }, '2026-12-30T10:00:00', [1, 3])).toEqual({
      ship_date: '2026-12-30',
      delivery_date_min: '2027-01-13',
      delivery_date_max: '2027-01-15',
    });
    expect(dates(WORKING, '2026-12-30T10:00:00', [1, 3]).delivery_date_min).toBe('2027-01-11');
  });
});
