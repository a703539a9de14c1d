// Calendar dates (YYYY-MM-DD) as the clerk's quote uses them (#21): the ship date's «Сегодня»/«Завтра» and a
// rate's expected delivery dates, «28–30 ноября». Pure (no DOM): unit-tested in Node.
//
// "Today" is Moscow's: carriers count days and cut-offs on Moscow time, and so does the core
// (core/util/moscow-date.ts, which the sandboxed renderer may not import; the same one-line rule here), so a
// clerk in Владивосток at 02:00 sees the date the carriers will count from.
import type { Lang } from './format';

const MOSCOW_OFFSET_MS = 3 * 3_600_000;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar date in Moscow at `now`, YYYY-MM-DD. */
export function moscowToday(now: Date = new Date()): string {
  return new Date(now.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** True for a real calendar date written YYYY-MM-DD (no 2026-02-30). */
export function isIsoDate(text: string): boolean {
  const m = ISO.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

const MONTHS_RU = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];
const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(date: string): { y: number; m: number; d: number } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { y, m, d };
}

function dayMonth(date: string, lang: Lang): string {
  const { m, d } = parts(date);
  return lang === 'ru' ? `${d}\u00a0${MONTHS_RU[m - 1]}` : `${d}\u00a0${MONTHS_EN[m - 1]}`;
}

/** "28 ноября" / "28 Nov"; with the year when it is not `thisYear`'s: "2 января 2027". */
export function formatDay(date: string, lang: Lang, thisYear?: number): string {
  const { y } = parts(date);
  return thisYear !== undefined && y !== thisYear ? `${dayMonth(date, lang)} ${y}` : dayMonth(date, lang);
}

/**
 * The expected delivery dates: "28–30 ноября", "30 ноября – 2 декабря", "28 ноября" (one day); en "28–30 Nov".
 * Null when the carrier gave no days.
 */
export function formatDateRange(
  min: string | null | undefined,
  max: string | null | undefined,
  lang: Lang,
): string | null {
  const lo = min ?? max ?? null;
  const hi = max ?? min ?? null;
  if (lo === null || hi === null) return null;
  if (lo === hi) return dayMonth(lo, lang);
  const a = parts(lo);
  const b = parts(hi);
  if (a.y === b.y && a.m === b.m) {
    const month = lang === 'ru' ? MONTHS_RU[a.m - 1] : MONTHS_EN[a.m - 1];
    return `${a.d}\u2013${b.d}\u00a0${month}`;
  }
  return `${dayMonth(lo, lang)} \u2013 ${dayMonth(hi, lang)}`;
}
