// A file of shipments as chosen (#21 item 6): an Excel workbook (by its ZIP signature) read from its first
// visible sheet with exceljs (xlsx.ts), an old or locked workbook named as such, anything else CSV text in
// UTF-8 with the delimiter its header uses (`;` from a Russian Excel, `,`, or a tab). The header is the first
// row with content; rows are numbered as the sheet numbers them.
import type { BulkProblem } from '../contract/operations';
import { MAX_BULK_ROWS } from '../contract/operations';
import { headerLine, lineOf, readRecords, type CsvRecord } from '../ratecards/records';
import { isZip } from '../ratecards/unzip';
import { BulkXlsxError, readSheetRecords } from './xlsx';

/** OLE2 compound files: Excel 97–2003 workbooks, and .xlsx files saved with a password. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export interface BulkFile {
  format: 'csv' | 'xlsx';
  header: CsvRecord | null;
  /** The rows under the header that have any content. */
  rows: CsvRecord[];
  /** A problem of the whole file (nothing else is read then). */
  problem: BulkProblem | null;
}

const blank = (r: CsvRecord): boolean => r.fields.every((f) => f === '');

function split(format: BulkFile['format'], records: Iterable<CsvRecord>): BulkFile {
  let header: CsvRecord | null = null;
  const rows: CsvRecord[] = [];
  for (const r of records) {
    if (blank(r)) continue;
    if (!header) {
      header = r;
      continue;
    }
    if (rows.length >= MAX_BULK_ROWS) {
      return { format, header, rows, problem: { line: r.line, kind: 'too_many_rows' } };
    }
    rows.push(r);
  }
  if (!header) return { format, header, rows, problem: { line: 1, kind: 'empty_file' } };
  if (rows.length === 0) return { format, header, rows, problem: { line: header.line, kind: 'no_rows' } };
  return { format, header, rows, problem: null };
}

/** The delimiter the header line uses most: `;`, `,` or a tab. */
function delimiterOf(text: string): string {
  const line = headerLine(text);
  const count = (c: string): number => line.split(c).length - 1;
  return ['\t', ',', ';'].reduce((best, c) => (count(c) > count(best) ? c : best), ';');
}

export async function readBulkFile(bytes: Buffer): Promise<BulkFile> {
  const none = (kind: BulkProblem['kind'], format: BulkFile['format'], line = 1): BulkFile => ({
    format,
    header: null,
    rows: [],
    problem: { line, kind },
  });
  if (OLE2.every((b, i) => bytes[i] === b)) return none('old_excel', 'xlsx');
  if (isZip(bytes)) {
    try {
      return split('xlsx', await readSheetRecords(bytes));
    } catch (err) {
      if (err instanceof BulkXlsxError) return none('bad_xlsx', 'xlsx');
      throw err;
    }
  }
  const decoded = new TextDecoder('utf-8').decode(bytes);
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (!/\S/.test(text)) return none('empty_file', 'csv');
  const bad = text.indexOf('\uFFFD');
  if (bad >= 0) return none('not_utf8', 'csv', lineOf(text, bad));
  const reader = readRecords(text, delimiterOf(text));
  const file = split('csv', reader.records);
  const open = reader.unterminatedAt();
  return open !== null && !file.problem
    ? { ...file, problem: { line: open, kind: 'unterminated_quote' } }
    : file;
}
