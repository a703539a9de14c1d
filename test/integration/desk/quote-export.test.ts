// quote:export (#17 item 5): the Quote screen's current result saved as CSV or XLSX. It is one stored quote
// through the history export's rows and the one CSV / XLSX writer, so the columns, the sandbox mark and the
// formula guard are the history export's.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskQuoteResult } from '../../../core/desk/contract';
import { FIRST_TWO_CARRIERS } from '../../helpers/service';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

let desk: DeskHarness;
let quote: DeskQuoteResult;
let other: DeskQuoteResult;

const CARD_NAME = '=HYPERLINK("http://evil.example","Курьер")';
const CARD = [
  'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type,service_code,service_name',
  '*,*,30000,500,1,2,door,fast,"@SUM(1+1) до двери"',
].join('\r\n');

beforeAll(async () => {
  desk = await startDesk(FIRST_TWO_CARRIERS);
  await desk.ok('ratecards:import', { code: 'evil', name: CARD_NAME, csv: CARD });
  quote = await desk.ok('quote:run', { quoteKey: 'q-1', shipment: SHIPMENT });
  // A second quote in history: the export holds the one asked for, not the history around it.
  other = await desk.ok('quote:run', {
    quoteKey: 'q-2',
    shipment: { ...SHIPMENT, to: { city: 'Санкт-Петербург', postal_code: '190000' } },
  });
});
afterAll(() => desk.close());

const fields = (line: string): string[] => line.split('";"').map((f) => f.replace(/^"|"$/g, ''));

describe('quote:export', () => {
  it('writes the quote as CSV in the history columns, one row per rate, cheapest first', async () => {
    const file = await desk.ok('quote:export', { id: quote.quote_id, format: 'csv' });
    expect(file.filename).toMatch(
      new RegExp(`^ratedesk-quote-${quote.quote_id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    expect(file.mime).toBe('text/csv;charset=utf-8');
    const text = Buffer.from(file.base64, 'base64').toString('utf8');
    expect(text.startsWith('\uFEFF"Дата";"Откуда";"Куда"')).toBe(true);
    const [header, ...rows] = text.slice(1).split('\r\n').slice(0, -1).map(fields);
    // #20 added «Склад» and «Автор» after «Цены»; #21 the clerk's eleven columns after them.
    expect(header).toHaveLength(23);
    expect(header?.slice(10, 13)).toEqual(['Склад', 'Автор', 'Наложенный платёж, ₽']);
    expect(rows).toHaveLength(quote.rates.length);
    expect(rows.map((r) => r[2])).toEqual(quote.rates.map(() => 'Казань'));
    expect(rows.map((r) => r[5])).toEqual(quote.rates.map((r) => r.service_name.replace(/^@/, "'@")));
    const prices = rows.map((r) => Number(r[7]!.replace(',', '.')));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // Sandbox prices say so in every row (the history export's «Цены» column).
    for (const r of rows) expect(r[9]).toBe('ПЕСОЧНИЦА: цены не настоящие');
    expect(text).not.toContain('Санкт-Петербург');
    expect(other.quote_id).not.toBe(quote.quote_id);
  });

  it('guards a rate card name that would run as a formula', async () => {
    const file = await desk.ok('quote:export', { id: quote.quote_id, format: 'csv' });
    const rows = Buffer.from(file.base64, 'base64').toString('utf8').slice(1).split('\r\n').map(fields);
    const evil = rows.find((r) => r[4]?.includes('HYPERLINK'));
    expect(evil?.[4]).toBe(`'${CARD_NAME.replace(/"/g, '""')}`);
    expect(evil?.[5]).toBe("'@SUM(1+1) до двери");
  });

  it('writes the same rows as XLSX, prices as numbers, on a sheet named after the quote', async () => {
    const file = await desk.ok('quote:export', { id: quote.quote_id, format: 'xlsx' });
    expect(file.filename).toMatch(/^ratedesk-quote-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(file.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe(`Расчёт ${quote.quote_id}`);
    expect(ws.rowCount).toBe(quote.rates.length + 1);
    quote.rates.forEach((r, i) => {
      const row = ws.getRow(i + 2);
      expect(row.getCell(5).value).toBe(r.carrier_name);
      expect(row.getCell(8).value).toBe(r.price_kopecks / 100);
    });
  });

  it('follows the UI language', async () => {
    await desk.ok('settings:set', { name: 'ui.language', value: 'en' });
    try {
      const file = await desk.ok('quote:export', { id: quote.quote_id, format: 'xlsx' });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(file.base64, 'base64') as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.name).toBe(`Quote ${quote.quote_id}`);
      expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Date');
    } finally {
      await desk.ok('settings:set', { name: 'ui.language', value: 'ru' });
    }
  });

  it('answers not_found for a quote that is not in history, invalid for another format', async () => {
    expect((await desk.fail('quote:export', { id: 999_999, format: 'csv' })).code).toBe('not_found');
    expect((await desk.fail('quote:export', { id: quote.quote_id, format: 'pdf' })).code).toBe('invalid');
  });
});
