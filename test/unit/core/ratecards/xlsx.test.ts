// Rate cards from Excel workbooks (#17 item 9): the first visible sheet of an .xlsx read as the rows of a
// rate card, whoever wrote it (exceljs with shared strings, our own writer with inline strings, a hand-made
// package with namespace prefixes, rich text and a hidden first sheet); old and broken files refused in one
// problem; a bomb stopped at its bound.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { templateXlsx } from '../../../../core/operations/ratecard-template';
import { writeXlsx } from '../../../../core/operations/xlsx';
import { zip } from '../../../../core/operations/zip';
import { cityKey } from '../../../../core/ratecards/cities';
import { parseRateCardFile } from '../../../../core/ratecards/parse';
import { MAX_XLSX_PART_BYTES, numberText, readXlsxRecords } from '../../../../core/ratecards/xlsx-read';

const options = { cityKey: (name: string) => cityKey(name) };
const parseFile = (bytes: Buffer) => parseRateCardFile(bytes, options);

const RU_HEADER = ['откуда', 'куда', 'вес до, г', 'цена, ₽', 'срок от', 'срок до', 'тип доставки', 'услуга'];

async function exceljsBook(rows: unknown[][], before?: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  before?.(wb);
  const ws = wb.addWorksheet('Сетка');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A package written by hand, as other writers lay it out. */
function handMade(sheets: { name: string; xml: string; hidden?: boolean }[], shared?: string): Buffer {
  const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const entries = [
    {
      name: '_rels/.rels',
      data: `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data:
        `<x:workbook xmlns:x="${NS}" xmlns:r="${REL}"><x:sheets>` +
        sheets
          .map(
            (s, i) =>
              `<x:sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"${s.hidden ? ' state="hidden"' : ''}/>`,
          )
          .join('') +
        '</x:sheets></x:workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data:
        `<Relationships xmlns="${PKG}">` +
        sheets
          .map(
            (_s, i) =>
              `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="/xl/worksheets/s${i + 1}.xml"/>`,
          )
          .join('') +
        (shared ? `<Relationship Id="rS" Type="${REL}/sharedStrings" Target="strings.xml"/>` : '') +
        '</Relationships>',
    },
    ...sheets.map((s, i) => ({
      name: `xl/worksheets/s${i + 1}.xml`,
      data: `<x:worksheet xmlns:x="${NS}"><x:sheetData>${s.xml}</x:sheetData></x:worksheet>`,
    })),
    ...(shared ? [{ name: 'xl/strings.xml', data: `<sst xmlns="${NS}">${shared}</sst>` }] : []),
  ];
  return zip(entries);
}

describe('reading a workbook', () => {
  it('reads what exceljs writes: shared strings, numbers, a price saved with float noise', async () => {
    const bytes = await exceljsBook([
      RU_HEADER,
      ['Москва', 'Санкт-Петербург', 1000, 350.5, 1, 2, 'до двери', 'Курьер'],
      // 0.1 + 0.2 style noise: what Excel shows as 412,3 may be saved as 412.30000000000001.
      ['Москва', '*', 5000, 0.1 * 3 + 412, 2, 4, 'ПВЗ', 'До пункта выдачи'],
      [],
      ['Москва', 420, 20000, '1 090,00', 2, 4, 'ПВЗ', 'До пункта выдачи'],
    ]);
    const { rows, problems } = parseFile(bytes);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.to, r.priceKopecks, r.deliveryType])).toEqual([
      [2, { kind: 'city', name: 'Санкт-Петербург' }, 35050, 'door'],
      [3, { kind: 'any' }, 41230, 'pickup_point'],
      // Line numbers are Excel's row numbers: the empty row 4 counts.
      [5, { kind: 'prefix', prefix: '420' }, 109000, 'pickup_point'],
    ]);
  });

  it('reports bad cells by their Excel row number and header', async () => {
    const bytes = await exceljsBook([
      RU_HEADER,
      ['Москва', '*', 1000, 350, 1, 2, 'до двери', 'Курьер'],
      ['Москва', 'Атлантида', 1000, 'дорого', 1, 2, 'до двери', 'Курьер'],
    ]);
    expect(parseFile(bytes).problems).toEqual([
      { line: 3, kind: 'unknown_city', column: 'to', header: 'куда', value: 'Атлантида' },
      { line: 3, kind: 'bad_price', column: 'price_rub', header: 'цена, ₽', value: 'дорого' },
    ]);
  });

  it('reads what our own writer writes (inline strings, a bold frozen header)', () => {
    const bytes = writeXlsx({
      name: 'Сетка',
      header: ['from', 'to', 'max_weight_grams', 'price_rub', 'days_min', 'days_max', 'delivery_type'],
      rows: [['Москва', '*', 1000, { money: 350 }, 1, 2, 'door']],
    });
    const { rows, problems } = parseFile(bytes);
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({ line: 2, priceKopecks: 35000, deliveryType: 'door' });
  });

  it('takes the first visible sheet, prefixed names, rich text, entities, gaps between cells', () => {
    const bytes = handMade(
      [
        {
          name: 'Lists',
          hidden: true,
          xml: '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>no</x:t></x:is></x:c></x:row>',
        },
        {
          name: 'Prices',
          xml:
            '<x:row r="1">' +
            [
              'from',
              'to',
              'max_weight_grams',
              'price_rub',
              'days_min',
              'days_max',
              'delivery_type',
              'service_name',
            ]
              .map((_h, i) => `<x:c r="${String.fromCharCode(65 + i)}1" t="s"><x:v>${i}</x:v></x:c>`)
              .join('') +
            '</x:row>' +
            '<x:row r="3"><x:c r="A3" t="s"><x:v>8</x:v></x:c><x:c r="B3" t="inlineStr"><x:is><x:t>*</x:t></x:is></x:c>' +
            '<x:c r="C3"><x:v>1000</x:v></x:c><x:c r="D3"><x:v>350</x:v></x:c><x:c r="E3"><x:v>1</x:v></x:c>' +
            '<x:c r="F3"><x:v>2</x:v></x:c><x:c r="G3" t="str"><x:f>"door"</x:f><x:v>door</x:v></x:c>' +
            '<x:c r="H3" t="s"><x:v>9</x:v></x:c></x:row>',
        },
      ],
      ['from', 'to', 'max_weight_grams', 'price_rub', 'days_min', 'days_max', 'delivery_type', 'service_name']
        .map((h) => `<si><t>${h}</t></si>`)
        .join('') +
        '<si><r><rPr><b/></rPr><t>Мос</t></r><r><t xml:space="preserve">ква</t></r><rPh><t>x</t></rPh></si>' +
        '<si><t>Курьер &amp; &#1082;о</t></si>',
    );
    const records = readXlsxRecords(bytes);
    expect(records[1]).toEqual({
      line: 3,
      fields: ['Москва', '*', '1000', '350', '1', '2', 'door', 'Курьер & ко'],
    });
    const { rows, problems } = parseFile(bytes);
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({ line: 3, serviceName: 'Курьер & ко' });
  });

  it('shows numbers as Excel shows a General cell (15 significant digits)', () => {
    expect(numberText('412.30000000000001')).toBe('412.3');
    expect(numberText('0.30000000000000004')).toBe('0.3');
    expect(numberText('1000')).toBe('1000');
    expect(numberText('1E-3')).toBe('0.001');
    expect(numberText('abc')).toBe('abc');
  });
});

describe('the XLSX template', () => {
  it('has the Russian header and two example rows that import as they are', async () => {
    const bytes = templateXlsx('ru', new Date('2026-01-01T00:00:00Z'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'откуда',
      'куда',
      'вес до, г',
      'цена, ₽',
      'срок от',
      'срок до',
      'тип доставки',
      'код услуги',
      'услуга',
      'страховка, %',
    ]);
    expect(sheet.rowCount).toBe(3);
    const { rows, problems } = parseFile(bytes);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.priceKopecks, r.deliveryType, r.declaredValueBp])).toEqual([
      [2, 35000, 'door', 50],
      [3, 59000, 'pickup_point', 0],
    ]);
  });
});

describe('files that are not a readable workbook: one problem, one line', () => {
  it('an Excel 97–2003 file', () => {
    const ole2 = Buffer.from([
      0xd0,
      0xcf,
      0x11,
      0xe0,
      0xa1,
      0xb1,
      0x1a,
      0xe1,
      ...new Array<number>(500).fill(0),
    ]);
    expect(parseFile(ole2).problems).toEqual([{ line: 1, kind: 'old_excel' }]);
  });

  it('a ZIP that is no workbook, a damaged one, a workbook with no rows', async () => {
    expect(parseFile(zip([{ name: 'content.xml', data: '<office/>' }])).problems).toEqual([
      { line: 1, kind: 'bad_xlsx' },
    ]);
    const good = await exceljsBook([RU_HEADER, ['Москва', '*', 1000, 350, 1, 2, 'до двери', 'x']]);
    expect(parseFile(good.subarray(0, good.length - 30)).problems).toEqual([{ line: 1, kind: 'bad_xlsx' }]);
    expect(parseFile(await exceljsBook([])).problems).toEqual([{ line: 1, kind: 'empty_file' }]);
  });

  it('a sheet that unpacks past the bound is refused, not inflated', () => {
    const bomb = handMade([
      { name: 'a', xml: `<x:row r="1">${' '.repeat(MAX_XLSX_PART_BYTES + 1)}</x:row>` },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const started = performance.now();
    expect(parseFile(bomb).problems).toEqual([{ line: 1, kind: 'bad_xlsx' }]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a sheet whose size is understated is stopped by the inflater at the bound', () => {
    const bomb = handMade([
      { name: 'a', xml: `<x:row r="1">${' '.repeat(MAX_XLSX_PART_BYTES + 1)}</x:row>` },
    ]);
    // Claim 100 bytes for the sheet in the central directory, as a hostile file would.
    const end = bomb.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let at = bomb.readUInt32LE(end + 16);
    while (bomb.readUInt32LE(at) === 0x02014b50) {
      const nameLength = bomb.readUInt16LE(at + 28);
      if (bomb.toString('utf8', at + 46, at + 46 + nameLength).includes('worksheets'))
        bomb.writeUInt32LE(100, at + 24);
      at += 46 + nameLength + bomb.readUInt16LE(at + 30) + bomb.readUInt16LE(at + 32);
    }
    expect(parseFile(bomb).problems).toEqual([{ line: 1, kind: 'bad_xlsx' }]);
  });

  it('CSV bytes are still CSV, and bytes that are not UTF-8 are said to be so', () => {
    const csv =
      'from;to;max_weight_grams;price_rub;days_min;days_max;delivery_type\nМосква;*;1000;350;1;2;door\n';
    expect(parseFile(Buffer.from(csv, 'utf8')).problems).toEqual([]);
    const cp1251 = Buffer.from([0x66, 0x72, 0x6f, 0x6d, 0x3b, 0xcc, 0xee, 0xf1, 0xea, 0xe2, 0xe0]);
    expect(parseFile(cp1251).problems).toEqual([{ line: 1, kind: 'not_utf8' }]);
  });
});
