// A one-sheet XLSX workbook (ECMA-376 SpreadsheetML, the minimal part set Excel, LibreOffice and exceljs
// accept): bold frozen header row, inline strings (no shared-string table to keep in step), plain numbers
// and a money format. Written by hand so the export needs no spreadsheet dependency. A cell is never a
// formula: text is an inline string (`t="inlineStr"`), numbers are `<v>`, and no `<f>` is ever written.
import { startsLikeFormula } from './csv';
import { zip } from './zip';

/** `{ money }` is shown with two decimals and a thousands separator (built-in number format 4). */
export type XlsxCell = string | number | { money: number } | null;

export interface XlsxSheet {
  name: string;
  header: readonly string[];
  rows: readonly (readonly XlsxCell[])[];
  /** Column widths in characters. */
  widths?: readonly number[];
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/**
 * `quoted` is Excel's own mark for text typed with a leading apostrophe (`quotePrefix`, ECMA-376 §18.8.45):
 * an inline string is never run as a formula when the file opens, but one that starts with = + - @ would
 * become one the moment someone edits the cell and presses Enter; with the mark it stays text.
 */
const STYLE = { normal: 0, bold: 1, money: 2, quoted: 3 } as const;

/** XML 1.0 cannot carry most control characters even escaped; they are dropped, not encoded. */
function esc(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

function cell(ref: string, value: XlsxCell, style: number): string {
  if (value === null || value === '') return '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${value}</v></c>` : '';
  }
  if (typeof value === 'object') return `<c r="${ref}" s="${STYLE.money}"><v>${value.money}</v></c>`;
  const textStyle = style === STYLE.normal && startsLikeFormula(value) ? STYLE.quoted : style;
  const s = textStyle ? ` s="${textStyle}"` : '';
  return `<c r="${ref}" t="inlineStr"${s}><is><t xml:space="preserve">${esc(value)}</t></is></c>`;
}

function row(index: number, cells: readonly XlsxCell[], style: number): string {
  const r = index + 1;
  return `<row r="${r}">${cells.map((v, c) => cell(`${columnName(c)}${r}`, v, style)).join('')}</row>`;
}

function sheetXml(sheet: XlsxSheet): string {
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const pane = '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>';
  const rows = [row(0, sheet.header, STYLE.bold), ...sheet.rows.map((r, i) => row(i + 1, r, STYLE.normal))];
  return (
    `${DECL}<worksheet xmlns="${NS}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews>` +
    `${cols}<sheetData>${rows.join('')}</sheetData></worksheet>`
  );
}

const STYLES =
  `${DECL}<styleSheet xmlns="${NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/></cellXfs>' +
  '</styleSheet>';

/** Excel refuses sheet names over 31 characters or with any of []:*?/\ in them. */
function sheetName(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
}

export function writeXlsx(sheet: XlsxSheet, modified: Date = new Date()): Buffer {
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return zip(
    [
      {
        name: '[Content_Types].xml',
        data:
          `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          `<Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>` +
          `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${ct}.worksheet+xml"/>` +
          `<Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        data:
          `${DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" ` +
          `Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      },
      {
        name: 'xl/workbook.xml',
        data:
          `${DECL}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>` +
          `<sheet name="${esc(sheetName(sheet.name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data:
          `${DECL}<Relationships xmlns="${PKG_REL_NS}">` +
          `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
      },
      { name: 'xl/styles.xml', data: STYLES },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml(sheet) },
    ],
    modified,
  );
}
