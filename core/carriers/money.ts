/**
 * Roubles as carriers send them (480, 2450.5, "8.253", "225.70 RUB") to integer kopecks, using decimal
 * string arithmetic: Math.round(x * 100) is wrong for values like 8.255 (binary float). Half-up on the
 * third decimal. Returns undefined for anything that is not a non-negative decimal number.
 */
export function roublesToKopecks(value: number | string): number | undefined {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return undefined;
  const whole = m[1]!;
  const frac = (m[2] ?? '').padEnd(3, '0');
  let kopecks = Number(whole) * 100 + Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) kopecks += 1;
  return Number.isSafeInteger(kopecks) ? kopecks : undefined;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n) || n < 0) return 'invalid';
  // toString() gives the shortest round-tripping decimal (2450.5 → "2450.5"); tiny/huge values use
  // exponent notation, which no carrier price has, so they are rejected by the pattern above.
  return n.toString();
}

/**
 * `total` kopecks in `n` shares of whole kopecks, as equal as can be, the odd kopecks on the first ones: how a
 * shipment's declared value or cash on delivery is shared out over its places where each is priced on its own.
 */
export function splitKopecks(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  const extra = total - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}
