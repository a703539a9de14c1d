// The first sheet of an Excel workbook (.xlsx, ECMA-376 SpreadsheetML) as the records a rate card is read
// from: one per sheet row that has cells, numbered as Excel numbers its rows, each field the cell's text as
// Excel shows it for a plain cell. Written here on node:zlib (unzip.ts) and fast-xml-parser, which the core
// already ships for DPD, instead of a spreadsheet library: exceljs, the one we test exports with, is 2.3 MB
// bundled and takes ~250 ms to load, for a reader of a few hundred lines (docs/carriers.md "Rate cards",
// the measurement). Formulas are not computed: the value Excel saved with the file is read, as Excel shows it.
import { XMLParser } from 'fast-xml-parser';
import type { CsvRecord } from './records';
import { openZip, ZipError, type ZipReader } from './unzip';

export class XlsxError extends Error {
  override readonly name = 'XlsxError';
}

/**
 * The largest part read out of a workbook, unpacked. 100,000 rows of ten cells are ~40 MB of sheet XML; a
 * sheet beyond this is refused as a whole (the row limit refuses it anyway).
 */
export const MAX_XLSX_PART_BYTES = 64_000_000;

const ARRAYS = new Set(['sheet', 'Relationship']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Writers differ in prefixes (`x:row` from the .NET SDK): names are compared without them.
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Numeric character references (&#1052;) are decoded only with this on.
  htmlEntities: true,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ARRAYS.has(name),
});

type Node = Record<string, unknown>;
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** The records of the workbook's first visible sheet; throws XlsxError for anything it cannot read. */
export function readXlsxRecords(bytes: Buffer): CsvRecord[] {
  let zip: ZipReader;
  try {
    zip = openZip(bytes);
    const workbook = xml(zip, 'xl/workbook.xml');
    if (!workbook) throw new XlsxError('no xl/workbook.xml: not an Excel workbook');
    const rels = relations(zip);
    const sheetPath = firstSheetPath(workbook, rels);
    const shared = sharedStrings(zip, rels);
    const sheet = zip.text(sheetPath, MAX_XLSX_PART_BYTES);
    if (sheet === null) throw new XlsxError(`no ${sheetPath}`);
    return sheetRecords(sheet, shared);
  } catch (err) {
    if (err instanceof ZipError) throw new XlsxError(err.message);
    throw err;
  }
}

function xml(zip: ZipReader, name: string): Node | null {
  const text = zip.text(name, MAX_XLSX_PART_BYTES);
  if (text === null) return null;
  try {
    return parser.parse(text) as Node;
  } catch (err) {
    throw new XlsxError(`${name}: ${(err as Error).message}`);
  }
}

function child(node: unknown, name: string): unknown {
  return node !== null && typeof node === 'object' ? (node as Node)[name] : undefined;
}

function list(node: unknown, name: string): Node[] {
  const v = child(node, name);
  return Array.isArray(v) ? (v as Node[]) : [];
}

function attr(node: Node, name: string): string | undefined {
  const v = node[`@${name}`];
  return typeof v === 'string' ? v : undefined;
}

/** xl/_rels/workbook.xml.rels: relationship id → { type, path inside the zip }. */
function relations(zip: ZipReader): Map<string, { type: string; path: string }> {
  const doc = xml(zip, 'xl/_rels/workbook.xml.rels');
  const map = new Map<string, { type: string; path: string }>();
  for (const rel of list(child(doc, 'Relationships'), 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (!id || !target) continue;
    // Targets are relative to xl/, or absolute from the package root.
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    map.set(id, { type: attr(rel, 'Type') ?? '', path });
  }
  return map;
}

function firstSheetPath(workbook: Node, rels: Map<string, { type: string; path: string }>): string {
  const sheets = list(child(child(workbook, 'workbook'), 'sheets'), 'sheet');
  // The first sheet a person sees: hidden ones are skipped (a template's lookup lists live there).
  const sheet = sheets.find((s) => (attr(s, 'state') ?? 'visible') === 'visible') ?? sheets[0];
  if (!sheet) throw new XlsxError('the workbook has no sheets');
  const path = rels.get(attr(sheet, 'id') ?? '')?.path;
  if (!path) throw new XlsxError('the first sheet has no part');
  return path;
}

function sharedStrings(zip: ZipReader, rels: Map<string, { type: string; path: string }>): string[] {
  const rel = [...rels.values()].find((r) => r.type === `${REL_TYPE}sharedStrings`);
  const text = zip.text(rel?.path ?? 'xl/sharedStrings.xml', MAX_XLSX_PART_BYTES);
  if (text === null) return [];
  const strings: string[] = [];
  for (const m of text.matchAll(element('si'))) strings.push(stringItem(m[2] ?? ''));
  return strings;
}

/** "AB12" → column index 27; null without letters. */
function columnIndex(ref: string): number | null {
  const m = /^([A-Z]{1,3})\d*$/.exec(ref);
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]!) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * A number as Excel shows it in a General cell: 15 significant digits, so 412.30000000000001 (what a typed
 * 412.3 can be saved as) reads 412.3, and the rate card's own parser sees what the person typed.
 */
export function numberText(raw: string): string {
  // Most cells are short plain numbers (1000, 350.5) that need no rounding: kept as written.
  if (raw.length <= 16 && /^-?\d+(?:\.\d+)?$/.test(raw) && raw.replace(/\D/g, '').length <= 15) return raw;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) return raw;
  return String(Number(n.toPrecision(15)));
}

/**
 * The sheet and the shared strings are scanned with regular expressions rather than parsed into objects: for
 * 100,000 rows fast-xml-parser took 10–16 s and 1.9 GB, the scan a fraction of that (docs/carriers.md). The
 * parts are regular: elements `row`, `c`, `v`, `is`, `si`, `t`, `r` with attributes in quotes, any prefix.
 */
function element(name: string): RegExp {
  return new RegExp(`<(?:[\\w.-]+:)?${name}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, 'g');
}
const ROW = element('row');
const CELL = element('c');
const V = element('v');
const IS = element('is');
const T = element('t');
const PHONETIC = element('rPh');

/** One compiled expression per attribute name (a sheet has a million cells; compiling per call was 40 %). */
const ATTRIBUTES = new Map<string, RegExp>();

function attribute(attrs: string | undefined, name: string): string | undefined {
  if (!attrs) return undefined;
  let re = ATTRIBUTES.get(name);
  if (!re) {
    re = new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    ATTRIBUTES.set(name, re);
  }
  const m = re.exec(attrs);
  return m ? decode(m[1] ?? m[2] ?? '') : undefined;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's five entities and numeric character references; CDATA sections as written. */
function decode(text: string): string {
  if (!text.includes('&') && !text.includes('<![CDATA[')) return text;
  return text.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g,
    (whole, cdata: string | undefined, ref: string | undefined) => {
      if (cdata !== undefined) return cdata;
      if (ref === undefined) return whole;
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return NAMED[ref] ?? whole;
    },
  );
}

/** A string item's text (`<si>`, `<is>`): its `<t>`s in order (rich-text runs too), phonetic runs left out. */
function stringItem(inner: string): string {
  let text = '';
  for (const m of inner.replace(PHONETIC, '').matchAll(T)) text += decode(m[2] ?? '');
  return text;
}

function firstMatch(re: RegExp, text: string): string | null {
  re.lastIndex = 0;
  const m = re.exec(text);
  re.lastIndex = 0;
  return m ? (m[2] ?? '') : null;
}

function cellText(attrs: string | undefined, inner: string, shared: readonly string[]): string {
  const type = attribute(attrs, 't') ?? 'n';
  if (type === 'inlineStr') return stringItem(firstMatch(IS, inner) ?? '');
  const v = decode(firstMatch(V, inner) ?? '');
  switch (type) {
    case 's': {
      const s = shared[Number(v)];
      if (s === undefined) throw new XlsxError(`shared string ${v} does not exist`);
      return s;
    }
    case 'n':
      return numberText(v);
    default:
      // str (a formula's text), b (1/0), e (#N/A…), d (an ISO date): as saved.
      return v;
  }
}

function sheetRecords(sheet: string, shared: readonly string[]): CsvRecord[] {
  const data = /<(?:[\w.-]+:)?sheetData\b[\s\S]*?(?:\/>|>([\s\S]*)<\/(?:[\w.-]+:)?sheetData>)/.exec(sheet);
  const records: CsvRecord[] = [];
  let line = 0;
  for (const row of (data?.[1] ?? '').matchAll(ROW)) {
    const r = Number(attribute(row[1], 'r'));
    line = Number.isInteger(r) && r > line ? r : line + 1;
    const fields: string[] = [];
    let col = -1;
    for (const c of (row[2] ?? '').matchAll(CELL)) {
      const ref = attribute(c[1], 'r');
      const at = ref === undefined ? null : columnIndex(ref);
      col = at !== null && at > col ? at : col + 1;
      while (fields.length < col) fields.push('');
      fields[col] = cellText(c[1], c[2] ?? '', shared).trim();
    }
    records.push({ line, fields });
  }
  return records;
}
