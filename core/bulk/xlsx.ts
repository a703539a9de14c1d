// Excel workbooks of shipments for bulk quoting, read with exceljs (#21: a well-kept library; the measurement
// and why the writers stay the project's own are in docs/operations.md "Bulk quoting", scripts/bench/xlsx.ts).
// Loaded on first use only: ~2 MB of code a desk that never quotes a file should not parse at start.
// A workbook is first checked with our own bounded unzip (core/ratecards/unzip.ts): exceljs inflates every
// part whole, so a 10 MB file holding a gigabyte of zeros is refused before it reaches the library.
import type * as ExcelJsModule from 'exceljs';
import type { CellValue, Workbook } from 'exceljs';
import type { CsvRecord } from '../ratecards/records';
import { openZip, ZipError } from '../ratecards/unzip';
import { numberText } from '../ratecards/xlsx-read';

export class BulkXlsxError extends Error {
  override readonly name = 'BulkXlsxError';
}

/** The largest part of a workbook read: 10,000 rows of fifteen cells are a few MB of sheet XML. */
const MAX_PART_BYTES = 64_000_000;

type ExcelJs = typeof ExcelJsModule;
let loaded: Promise<ExcelJs> | null = null;
function excel(): Promise<ExcelJs> {
  // exceljs is CommonJS: its classes are on the default export under ESM and on the module under CJS.
  loaded ??= import('exceljs').then((m) => ((m as { default?: ExcelJs }).default ?? m) as ExcelJs);
  return loaded;
}

function checkBounds(bytes: Buffer): void {
  try {
    const zip = openZip(bytes);
    if (!zip.has('xl/workbook.xml')) throw new BulkXlsxError('no xl/workbook.xml: not an Excel workbook');
    for (let i = 1; zip.has(`xl/worksheets/sheet${i}.xml`); i++)
      zip.text(`xl/worksheets/sheet${i}.xml`, MAX_PART_BYTES);
    zip.text('xl/sharedStrings.xml', MAX_PART_BYTES);
  } catch (err) {
    if (err instanceof ZipError) throw new BulkXlsxError(err.message);
    throw err;
  }
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A cell as Excel shows a plain cell: numbers to 15 digits, dates as YYYY-MM-DD, a formula's saved result. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(String(value));
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    // exceljs reads a date cell as UTC midnight of the day shown.
    return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    return result === undefined || (typeof result === 'object' && result !== null && 'error' in result)
      ? ''
      : cellText(result as CellValue);
  }
  if ('text' in value) return String(value.text);
  if ('error' in value) return String(value.error);
  return '';
}

/** The first visible sheet's rows that have cells, numbered as Excel numbers them. */
export async function readSheetRecords(bytes: Buffer): Promise<CsvRecord[]> {
  checkBounds(bytes);
  const ExcelJS = await excel();
  const wb: Workbook = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (err) {
    throw new BulkXlsxError((err as Error).message);
  }
  const sheet = wb.worksheets.find((s) => s.state === 'visible') ?? wb.worksheets[0];
  if (!sheet) throw new BulkXlsxError('the workbook has no sheets');
  const records: CsvRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const fields: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      while (fields.length < col - 1) fields.push('');
      fields[col - 1] = cellText(cell.value).trim();
    });
    records.push({ line, fields });
  });
  return records;
}
