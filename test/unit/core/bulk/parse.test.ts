// Reading a file of shipments (#21 item 6): CSV with any of the usual delimiters, an Excel workbook read with
// exceljs (shared strings, numbers, dates), the mapping suggested from Russian and English headers, and every
// bad row reported by its number in the sheet with the field and the text found.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fieldOfHeader, suggestMapping } from '../../../../core/bulk/map';
import { parseBulk } from '../../../../core/operations/bulk';

const csv = (text: string): Buffer => Buffer.from(text, 'utf8');

async function workbook(rows: unknown[][], before?: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  before?.(wb);
  const ws = wb.addWorksheet('Отправления');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('the suggested mapping', () => {
  it('names fields from Russian and English headers', () => {
    expect(
      suggestMapping([
        'Номер заказа',
        'Город отправителя',
        'Индекс отправителя',
        'Город получателя',
        'Индекс получателя',
        'Вес, кг',
        'Длина, см',
        'Ширина, см',
        'Высота, см',
        'Количество мест',
        'Объявленная ценность',
        'Наложенный платёж',
        'Дата отгрузки',
        'Перевозчики',
      ]),
    ).toEqual({
      reference: 0,
      from_city: 1,
      from_postal_code: 2,
      to_city: 3,
      to_postal_code: 4,
      weight_kg: 5,
      length_cm: 6,
      width_cm: 7,
      height_cm: 8,
      places: 9,
      declared_value_rub: 10,
      cod_rub: 11,
      ship_date: 12,
      carriers: 13,
    });
    expect(fieldOfHeader('weight, g')).toBe('weight_grams');
    expect(fieldOfHeader('Вес, г')).toBe('weight_grams');
    expect(fieldOfHeader('Weight (kg)')).toBe('weight_kg');
    expect(fieldOfHeader('to postal code')).toBe('to_postal_code');
    expect(fieldOfHeader('Д')).toBe('length_cm');
    expect(fieldOfHeader('Комментарий')).toBeNull();
  });
});

describe('a CSV file', () => {
  it('reads rows into shipments with the suggested mapping: kg, places, roubles, dates, carriers', async () => {
    const r = await parseBulk(
      csv(
        '\uFEFFНомер;Откуда;Куда;Индекс куда;Вес, кг;Д;Ш;В;Мест;Ценность, ₽;НП, ₽;Дата;Перевозчики\r\n' +
          'A-1;Москва;Казань;420000;1,25;30;20;10;1;1 500,50;0;01.12.2026;cdek, boxberry\r\n' +
          'A-2;Москва;;420000;0,5;30;20;10;3;;2000;2026-12-02;\r\n',
      ),
      undefined,
    );
    expect(r.format).toBe('csv');
    expect(r.problems).toEqual([]);
    expect(r.total_rows).toBe(2);
    expect(r.shipments).toEqual([
      {
        line: 2,
        reference: 'A-1',
        shipment: {
          from: { country: 'RU', city: 'Москва' },
          to: { country: 'RU', city: 'Казань', postal_code: '420000' },
          parcel: { weight_grams: 1250, length_cm: 30, width_cm: 20, height_cm: 10 },
          declared_value_kopecks: 150050,
          cod_kopecks: 0,
          ship_date: '2026-12-01',
          carriers: ['cdek', 'boxberry'],
        },
      },
      {
        line: 3,
        reference: 'A-2',
        shipment: {
          from: { country: 'RU', city: 'Москва' },
          // A row with an index only goes to the index's town.
          to: { country: 'RU', city: 'Казань', postal_code: '420000' },
          places: [{ weight_grams: 500, length_cm: 30, width_cm: 20, height_cm: 10, count: 3 }],
          declared_value_kopecks: 0,
          cod_kopecks: 200000,
          ship_date: '2026-12-02',
        },
      },
    ]);
    expect(r.preview[0]).toEqual({
      line: 2,
      fields: [
        'A-1',
        'Москва',
        'Казань',
        '420000',
        '1,25',
        '30',
        '20',
        '10',
        '1',
        '1 500,50',
        '0',
        '01.12.2026',
        'cdek, boxberry',
      ],
    });
  });

  it('lists every bad row with its number, field and text; good rows still read', async () => {
    const r = await parseBulk(
      csv(
        'to,weight_kg,length,width,height,date\n' +
          'Казань,1,30,20,10,\n' +
          '\n' + // a blank line is not a row, and the numbers stay the file's
          ',1,30,20,10,\n' +
          'Казань,-1,30,20,10,\n' +
          'Казань,1,30,0,10,31.02.2026\n' +
          'Казань,1,30,20,10,\n',
      ),
      undefined,
      { country: 'RU', city: 'Москва' },
    );
    expect(r.shipments.map((s) => s.line)).toEqual([2, 7]);
    expect(r.problems).toEqual([
      { line: 4, kind: 'no_place', field: 'to_city' },
      { line: 5, kind: 'bad_weight', field: 'weight_kg', value: '-1' },
      { line: 6, kind: 'bad_size', field: 'width_cm', value: '0' },
      { line: 6, kind: 'bad_date', field: 'ship_date', value: '31.02.2026' },
    ]);
    expect(r.bad_rows).toBe(3);
    // The origin given stands in for the missing from columns.
    expect(r.shipments[0]!.shipment.from).toEqual({ country: 'RU', city: 'Москва' });
  });

  it('says which fields the mapping lacks, and takes a mapping of the clerk’s own', async () => {
    const text = csv('Получатель;Масса;Размер 1;Размер 2;Размер 3\nКазань;2;10;10;10\n');
    const suggested = await parseBulk(text, undefined, { country: 'RU', city: 'Москва' });
    expect(suggested.problems).toEqual([
      { line: 1, kind: 'unmapped', field: 'length_cm' },
      { line: 1, kind: 'unmapped', field: 'width_cm' },
      { line: 1, kind: 'unmapped', field: 'height_cm' },
    ]);
    const own = await parseBulk(
      text,
      { to_city: 0, weight_grams: 1, length_cm: 2, width_cm: 3, height_cm: 4 },
      { country: 'RU', city: 'Москва' },
    );
    expect(own.problems).toEqual([]);
    expect(own.shipments[0]!.shipment.parcel).toEqual({
      weight_grams: 2,
      length_cm: 10,
      width_cm: 10,
      height_cm: 10,
    });
  });

  it('refuses a file that is not UTF-8, an old Excel file, an empty one, a header alone', async () => {
    expect((await parseBulk(Buffer.from([0x41, 0x3b, 0xcc, 0xee, 0x0a]), undefined)).problems).toEqual([
      { line: 1, kind: 'not_utf8' },
    ]);
    const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect((await parseBulk(ole2, undefined)).problems).toEqual([{ line: 1, kind: 'old_excel' }]);
    expect((await parseBulk(csv('  \n'), undefined)).problems).toEqual([{ line: 1, kind: 'empty_file' }]);
    expect((await parseBulk(csv('куда;вес\n'), undefined)).problems).toEqual([{ line: 1, kind: 'no_rows' }]);
  });
});

describe('an XLSX file', () => {
  it('reads the first visible sheet: shared strings, numbers, a date cell, rows numbered as Excel numbers them', async () => {
    const bytes = await workbook(
      [
        ['Куда', 'Индекс куда', 'Вес, кг', 'Длина', 'Ширина', 'Высота', 'Дата отгрузки'],
        ['Казань', 420000, 1.2, 30, 20, 10, new Date(Date.UTC(2026, 11, 3))],
        [],
        ['Самара', 443000, 'тяжёлый', 30, 20, 10, null],
      ],
      (wb) => {
        const hidden = wb.addWorksheet('Списки');
        hidden.state = 'hidden';
        hidden.addRow(['не эта']);
      },
    );
    const r = await parseBulk(bytes, undefined, { country: 'RU', city: 'Москва' });
    expect(r.format).toBe('xlsx');
    expect(r.columns).toEqual([
      'Куда',
      'Индекс куда',
      'Вес, кг',
      'Длина',
      'Ширина',
      'Высота',
      'Дата отгрузки',
    ]);
    expect(r.shipments).toHaveLength(1);
    expect(r.shipments[0]).toMatchObject({
      line: 2,
      shipment: {
        to: { city: 'Казань', postal_code: '420000' },
        parcel: { weight_grams: 1200, length_cm: 30 },
        ship_date: '2026-12-03',
      },
    });
    expect(r.problems).toEqual([{ line: 4, kind: 'bad_weight', field: 'weight_kg', value: 'тяжёлый' }]);
  });

  it('a damaged workbook is one problem', async () => {
    const good = await workbook([['Куда'], ['Казань']]);
    expect((await parseBulk(good.subarray(0, good.length - 40), undefined)).problems).toEqual([
      { line: 1, kind: 'bad_xlsx' },
    ]);
  });
});
