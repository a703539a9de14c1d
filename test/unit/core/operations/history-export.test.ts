// The pieces of the history export: CSV text rules, the hand-written ZIP and XLSX, price changes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../../core/contract/v1';
import { exportRows, historyCsv, historyXlsx, roublesText } from '../../../../core/operations/history-export';
import { priceChanges } from '../../../../core/operations/history';
import { columnName, writeXlsx } from '../../../../core/operations/xlsx';
import { zip } from '../../../../core/operations/zip';
import { crc32 } from '../../../../core/keys/crc32';
import type { QuoteRow } from '../../../../core/store/port';

function rate(over: Partial<Rate>): Rate {
  return {
    carrier: 'cdek',
    carrier_name: 'СДЭК',
    service_code: 'cdek:136',
    service_name: 'Посылка склад-склад',
    delivery_type: 'pickup_point',
    price_kopecks: 123450,
    currency: 'RUB',
    days_min: 2,
    days_max: 4,
    price_type: 'public',
    ...over,
  };
}

function quote(id: number, over: Partial<QuoteRow>, rates: Rate[]): QuoteRow {
  return {
    id,
    request_id: `req_${id}`,
    source: 'desk',
    created_at: '2025-03-04T05:06:07.000Z',
    from_city: 'Москва',
    to_city: 'Казань',
    weight_grams: 1200,
    cheapest_kopecks: rates[0]?.price_kopecks ?? null,
    carriers: 'cdek',
    sandbox: 1,
    shipment_json: '{}',
    result_json: JSON.stringify({ rates, unavailable: [] }),
    author: null,
    warehouse: null,
    ...over,
  };
}

describe('roublesText', () => {
  it.each([
    [0, '0,00'],
    [5, '0,05'],
    [123450, '1234,50'],
    [100_000_000_00, '100000000,00'],
    [-150, '-1,50'],
  ])('%i kopecks → %s', (k, text) => expect(roublesText(k)).toBe(text));
});

describe('historyCsv', () => {
  it('quotes every field, doubles quotes, and defuses formulas', () => {
    const rows = exportRows(
      [
        quote(1, { from_city: 'Город; "Новый"', to_city: '=HYPERLINK("http://evil")' }, [
          rate({ days_min: 3, days_max: 3 }),
        ]),
        quote(2, { to_city: '-1+2', result_json: 'not json' }, []),
      ],
      'ru',
    );
    const lines = historyCsv(rows, 'ru').slice(1).split('\r\n');
    expect(lines[1]).toMatch(
      /;"Город; ""Новый""";"'=HYPERLINK\(""http:\/\/evil""\)";"1200";"СДЭК";"Посылка склад-склад";"пункт выдачи";"1234,50";"3";"ПЕСОЧНИЦА: цены не настоящие";"";""$/,
    );
    // A quote without rates keeps its route in the file.
    expect(lines[2]).toMatch(
      /;"Москва";"'-1\+2";"1200";"";"";"";"";"";"ПЕСОЧНИЦА: цены не настоящие";"";""$/,
    );
  });

  it('writes English headers and labels when the UI is in English', () => {
    const csv = historyCsv(exportRows([quote(1, {}, [rate({ delivery_type: 'door' })])], 'en'), 'en');
    // #9: a column marks sandbox prices in every row, so none is pasted to a customer as real; #20: then
    // the warehouse and the author.
    expect(csv.split('\r\n')[0]).toBe(
      '\uFEFF"Date";"From";"To";"Weight, g";"Carrier";"Service";"Delivery";"Price, ₽";"Days";"Prices";"Warehouse";"Author"',
    );
    expect(csv).toContain(';"door";"1234,50";"2–4";"SANDBOX: prices are not real";"";""\r\n');
  });

  it('names carriers in the file’s language: English names for built-in carriers, a rate card as stored', () => {
    const rates = [
      rate({}),
      rate({ carrier: 'russian-post', carrier_name: 'Почта России' }),
      rate({ carrier: 'dellin', carrier_name: 'Деловые Линии' }),
      rate({ carrier: 'my-card', carrier_name: 'Своя доставка' }),
    ];
    const carrierColumn = (lang: 'ru' | 'en'): string[] =>
      exportRows([quote(1, {}, rates)], lang).map((r) => r.carrier);
    expect(carrierColumn('en')).toEqual(['CDEK', 'Russian Post', 'Dellin', 'Своя доставка']);
    expect(carrierColumn('ru')).toEqual(['СДЭК', 'Почта России', 'Деловые Линии', 'Своя доставка']);
  });

  it('names the warehouse and the author of a company desk’s quote (#20), formula-guarded like every cell', () => {
    const csv = historyCsv(
      exportRows([quote(1, { author: 'anna', warehouse: '=Подольск' }, [rate({})])], 'ru'),
      'ru',
    );
    expect(csv.split('\r\n')[0]).toMatch(/;"Цены";"Склад";"Автор"$/);
    expect(csv.split('\r\n')[1]).toMatch(/;"ПЕСОЧНИЦА: цены не настоящие";"'=Подольск";"anna"$/);
  });

  it('leaves the price column empty for real (live) quotes', () => {
    const csv = historyCsv(exportRows([quote(1, { sandbox: 0 }, [rate({})])], 'ru'), 'ru');
    expect(csv.split('\r\n')[1]).toMatch(/;"1234,50";"2–4";"";"";""$/);
    expect(csv).not.toContain('ПЕСОЧНИЦА');
  });
});

describe('zip', () => {
  it('uses the same CRC-32 as core/keys/crc32', () => {
    for (const text of ['', 'a', 'RateDesk', 'Привет, мир'])
      expect(zlibCrc32(Buffer.from(text))).toBe(crc32(text));
  });

  it('is a valid archive for Info-ZIP (CRCs, sizes, deflate)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-zip-'));
    try {
      const file = join(dir, 'a.zip');
      const big = 'строка '.repeat(10_000);
      writeFileSync(
        file,
        zip([
          { name: 'a.txt', data: 'hello' },
          { name: 'big.txt', data: big },
          { name: 'empty', data: '' },
        ]),
      );
      expect(execFileSync('unzip', ['-tq', file]).toString()).toContain('No errors');
      expect(execFileSync('unzip', ['-p', file, 'big.txt']).toString()).toBe(big);
      expect(execFileSync('unzip', ['-p', file, 'a.txt']).toString()).toBe('hello');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores names as UTF-8 and flags them so (bit 11), in the local and the central header', () => {
    const name = 'папка/б.txt';
    const buf = zip([{ name, data: 'x' }]);
    const nameBytes = Buffer.from(name, 'utf8');
    expect(buf.readUInt32LE(0)).toBe(0x04034b50);
    expect(buf.readUInt16LE(6) & 0x0800).toBe(0x0800);
    expect(buf.subarray(30, 30 + nameBytes.length)).toEqual(nameBytes);
    const end = buf.length - 22;
    expect(buf.readUInt32LE(end)).toBe(0x06054b50);
    const central = buf.readUInt32LE(end + 16);
    expect(buf.readUInt32LE(central)).toBe(0x02014b50);
    expect(buf.readUInt16LE(central + 8) & 0x0800).toBe(0x0800);
    expect(buf.subarray(central + 46, central + 46 + nameBytes.length)).toEqual(nameBytes);
  });
});

describe('writeXlsx', () => {
  it('names columns like Excel', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('names the English history sheet so that Excel and exceljs open it (never the reserved "History")', async () => {
    for (const [lang, name] of [
      ['en', 'Quote history'],
      ['ru', 'История'],
    ] as const) {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(historyXlsx([], lang, new Date('2026-11-27T10:00:00Z')) as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.name).toBe(name);
    }
  });

  it('reads back in exceljs: bold header, strings, numbers, money, empty cells, escaped text', async () => {
    const buf = writeXlsx({
      name: 'Лист: [1]/2',
      header: ['Текст', 'Число', 'Цена'],
      rows: [
        ['<a & "b">', 42, { money: 1234.5 }],
        ['  spaces kept  ', null, { money: 0.05 }],
        ['ctrl\u0001char', 1.25, ''],
      ],
      widths: [20, 10, 12],
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Лист   1  2');
    expect(ws.getRow(1).values).toEqual([undefined, 'Текст', 'Число', 'Цена']);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getCell('A2').value).toBe('<a & "b">');
    expect(ws.getCell('B2').value).toBe(42);
    expect(ws.getCell('C2').value).toBe(1234.5);
    expect(ws.getCell('C2').numFmt).toBe('#,##0.00');
    expect(ws.getCell('A3').value).toBe('  spaces kept  ');
    expect(ws.getCell('B3').value).toBeNull();
    expect(ws.getCell('A4').value).toBe('ctrlchar');
    expect(ws.getCell('C4').value).toBeNull();
    expect(ws.getColumn(1).width).toBe(20);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });
});

describe('priceChanges', () => {
  it('pairs services by carrier and code, new and gone ones with a null side', () => {
    const a = rate({ service_code: 'a', price_kopecks: 100 });
    const b = rate({ service_code: 'b', price_kopecks: 200 });
    const c = rate({ service_code: 'c', price_kopecks: 300 });
    const otherCarrier = rate({ carrier: 'russian-post', service_code: 'a', price_kopecks: 50 });
    const changes = priceChanges([a, b], [{ ...b, price_kopecks: 250 }, c, otherCarrier]);
    expect(changes.map((x) => [x.carrier, x.service_code, x.before_kopecks, x.after_kopecks])).toEqual([
      ['russian-post', 'a', null, 50],
      ['cdek', 'b', 200, 250],
      ['cdek', 'c', null, 300],
      ['cdek', 'a', 100, null],
    ]);
  });
});
