// Russian carriers count days and cut-offs on Moscow time (UTC+3 all year since 2014), whatever the desk's or
// the server's own time zone is.
const MOSCOW_OFFSET_MS = 3 * 3_600_000;

/** The calendar date in Moscow at `now`, YYYY-MM-DD. */
export function moscowDate(now: Date): string {
  return new Date(now.getTime() + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
}

/** The hour of day in Moscow at `now` (0–23) with minutes as a fraction: 17.5 is 17:30. */
export function moscowHour(now: Date): number {
  const t = new Date(now.getTime() + MOSCOW_OFFSET_MS);
  return t.getUTCHours() + t.getUTCMinutes() / 60;
}
