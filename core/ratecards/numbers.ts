// The numbers of a rate-card cell as people type them in Russian spreadsheets: comma or dot decimals, spaces
// (plain, no-break, narrow) between thousands. Read from the text, never through a float.

/** Spaces people and spreadsheets put between thousands: space, no-break space, narrow no-break space. */
const GROUP_SPACES = /[ \u00a0\u202f]/g;

/**
 * A non-negative decimal with at most 2 decimals, comma or dot, spaces between thousands allowed, as an
 * integer of hundredths: "1 234,50" → 123450, "12.5" → 1250, "7" → 700. Read from the text, never through a
 * float (0.29 × 100 is 28.999999999999996). Null for anything else or above `max` hundredths.
 */
export function parseDecimal(text: string, max: number): number | null {
  const compact = text.trim().replace(GROUP_SPACES, '');
  // Spaces may only have stood between digits ("1 234", not "12 ,5").
  if (!/^\d+(?:[ \u00a0\u202f]\d+)*(?:[.,]\d{1,2})?$/.test(text.trim())) return null;
  const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!m) return null;
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  // More digits than any allowed value has: refuse before Number() rounds them.
  if (whole.length > 15) return null;
  const value = Number(whole) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return value <= max ? value : null;
}

/** A whole number from min to max; spaces between thousands allowed ("1 000"). */
export function parseWholeNumber(text: string, min: number, max: number): number | null {
  const t = text.trim();
  if (!/^\d+(?:[ \u00a0\u202f]\d+)*$/.test(t)) return null;
  const digits = t.replace(GROUP_SPACES, '').replace(/^0+(?=\d)/, '');
  if (digits.length > 15) return null;
  const n = Number(digits);
  return n >= min && n <= max ? n : null;
}
