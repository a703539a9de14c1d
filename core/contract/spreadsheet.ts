// How RateDesk writes text a spreadsheet reads, shared by everything it hands to one: the CSV writer
// (core/operations/csv.ts), the XLSX writer's quote-prefix mark (core/operations/xlsx.ts), the history and
// quote exports (core/operations/history-export.ts) and the desk's tab-separated copy of a quote, which a
// clerk pastes into Excel or 1С (renderer/src/features/quote/copy-tsv.ts). Renderer-safe: plain functions.

/**
 * Characters that make a spreadsheet run a cell as a formula when they start it: OWASP "CSV Injection"
 * (https://owasp.org/www-community/attacks/CSV_Injection) lists = + - @ TAB and CR; CWE-1236 and
 * OWASP ASVS 5.0 V1.2.10 say the same.
 */
const FORMULA_START = /[=+\-@\t\r]/;

/**
 * Where a cell can begin inside a field. A reader that honours the quotes sees one cell per field, but OWASP's
 * page warns that guarding the first character is not enough: a reader that splits on `,` or `;` and ignores
 * quotes (a spreadsheet opened with the "wrong" separator, `cut`, a naive script) starts a cell after any
 * separator or line break in the text, and such a reader may also strip the quotes and spaces before the
 * character. So the guard goes before a formula character found at the start of the field or after a `,`,
 * `;`, CR or LF, with only spaces or double quotes between them.
 */
const CELL_START_THEN_FORMULA = /(^|[,;\r\n])([ "]*)(?=[=+\-@\t\r])/g;

/**
 * OWASP's remedy: a leading apostrophe, which spreadsheets read as "this cell is text" (Excel hides it). The
 * text is otherwise unchanged, so an RFC 4180 reader gets the original back with an apostrophe before each
 * guarded character ("Казань,=1+1," → "Казань,'=1+1,").
 */
export function defuseFormulas(text: string): string {
  return text.replace(CELL_START_THEN_FORMULA, "$1$2'");
}

/** True when `text` starts with a character a spreadsheet would run as a formula (the XLSX writer asks). */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text.charAt(0));
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * 123450 → "1234,50": exact (integer arithmetic), no thousands separator to misparse. The decimal comma is
 * Russian Excel's; the desk's clipboard copy passes the separator of the computer's own locale.
 */
export function roublesText(kopecks: number, decimal: ',' | '.' = ','): string {
  const sign = kopecks < 0 ? '-' : '';
  const abs = Math.abs(kopecks);
  return `${sign}${Math.floor(abs / 100)}${decimal}${pad2(abs % 100)}`;
}

/** "2–4", "3" or "": an en dash, because Excel reads "2-4" as the 2nd of April. */
export function daysText(min: number | null | undefined, max: number | null | undefined): string {
  const lo = min ?? null;
  const hi = max ?? null;
  if (lo === null && hi === null) return '';
  if (lo === null || hi === null || lo === hi) return String(lo ?? hi);
  return `${lo}–${hi}`;
}
