// #21: Moscow's today for «Сегодня»/«Завтра», and a rate's expected delivery dates as the clerk reads them.
import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatDateRange,
  formatDay,
  isIsoDate,
  moscowToday,
} from '../../../../../renderer/src/lib/dates';

describe('dates', () => {
  it('today is Moscow’s, whatever the desk’s zone', () => {
    // 22:30 UTC on the 27th is 01:30 on the 28th in Moscow.
    expect(moscowToday(new Date('2026-11-27T22:30:00Z'))).toBe('2026-11-28');
    expect(moscowToday(new Date('2026-11-27T20:59:00Z'))).toBe('2026-11-27');
  });

  it('reads only real days', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('28.11.2026')).toBe(false);
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
  });

  it('a range in one month, across months, one day; English', () => {
    expect(formatDateRange('2026-11-28', '2026-11-30', 'ru')).toBe('28–30\u00a0ноября');
    expect(formatDateRange('2026-11-30', '2026-12-02', 'ru')).toBe('30\u00a0ноября – 2\u00a0декабря');
    expect(formatDateRange('2026-12-01', '2026-12-01', 'ru')).toBe('1\u00a0декабря');
    expect(formatDateRange(null, '2026-12-01', 'ru')).toBe('1\u00a0декабря');
    expect(formatDateRange(null, null, 'ru')).toBeNull();
    expect(formatDateRange('2026-11-28', '2026-11-30', 'en')).toBe('28–30\u00a0Nov');
    expect(formatDay('2027-01-02', 'ru', 2026)).toBe('2\u00a0января 2027');
  });
});
