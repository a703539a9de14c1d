// The one CSV writer of RateDesk (every CSV file the app writes goes through `csvText`): RFC 4180 fields,
// every one quoted, with formulas defused for spreadsheets that read the file naively.

// The guard itself is core/contract/spreadsheet.ts: the desk's tab-separated copy uses the same rule.
import { defuseFormulas } from '../contract/spreadsheet';

export { defuseFormulas, startsLikeFormula } from '../contract/spreadsheet';

/** RFC 4180 §2.5–2.7: every field enclosed in double quotes, a quote inside doubled. */
export function csvField(text: string): string {
  return `"${defuseFormulas(text).replace(/"/g, '""')}"`;
}

export interface CsvOptions {
  /** `;` for the Russian-locale Excel that opens RateDesk's files (history-export.ts says why). */
  separator: ',' | ';';
  /** A UTF-8 byte-order mark first, so Excel reads the file as UTF-8 and not as the ANSI code page. */
  bom?: boolean;
}

/** Whole records, CRLF after each (RFC 4180 §2.1), the header being the first record. */
export function csvText(records: readonly (readonly string[])[], options: CsvOptions): string {
  const lines = records.map((fields) => fields.map(csvField).join(options.separator));
  return `${options.bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}
