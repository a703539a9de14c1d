// Rate cards the way an admin has them (#17 item 9): an Excel workbook imported as it is, Russian column
// names beside the English ones, an old .xls named in one line, and a template (CSV and Excel) to start from
// that imports back unchanged. Screenshots of the dialog at 1280×800 and 1024×640, in Russian and English.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';

const RU_HEADER = ['Откуда', 'Куда', 'Вес до, г', 'Цена, ₽', 'Срок от', 'Срок до', 'Тип доставки', 'Услуга'];

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Цены');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function choose(page: Page, name: string, buffer: Buffer, mimeType: string): Promise<void> {
  await page.getByTestId('ratecard-file').setInputFiles({ name, mimeType, buffer });
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function openDialog(page: Page): Promise<void> {
  await openApp(page, 'carriers');
  await page.getByTestId('ratecard-import').click();
  await expect(page.getByTestId('ratecard-import-dialog')).toBeVisible();
}

test('an Excel workbook with Russian headers is imported as it is', async ({ page, desk }) => {
  await openDialog(page);
  const header = RU_HEADER;
  await choose(
    page,
    'Курьер Плюс.xlsx',
    await workbook([
      header,
      ['Москва', 'Санкт-Петербург', 1000, 350.5, 1, 2, 'до двери', 'Курьер до двери'],
      ['Москва', '*', 5000, 590, 2, 4, 'ПВЗ', 'До пункта выдачи'],
    ]),
    XLSX,
  );
  await expect(page.getByTestId('ratecard-file-ok')).toHaveText('Файл прочитан: 2 строки, 2 услуги.');
  await page.getByTestId('ratecard-code').fill('courier-plus');
  await page.getByTestId('ratecard-name').fill('Курьер Плюс');
  await page.getByTestId('ratecard-name').press('Enter');
  await expect(page.getByTestId('ratecard-import-dialog')).toHaveCount(0);
  await expect(page.getByTestId('ratecard-row-courier-plus')).toContainText(
    'Курьер до двери, До пункта выдачи',
  );
  const [card] = await desk.call('ratecards:list');
  expect(card?.services.map((s) => s.delivery_type)).toEqual(['door', 'pickup_point']);
});

test('a bad cell of a workbook is shown by its Excel row and its Russian header', async ({ page, desk }) => {
  await openDialog(page);
  const header = RU_HEADER;
  await choose(
    page,
    'prices.xlsx',
    await workbook([header, ['Москва', '*', 1000, 'дорого', 1, 2, 'самолёт', 'Курьер']]),
    XLSX,
  );
  const items = page.getByTestId('ratecard-problem');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveText(
    'Строка 2: Цена, ₽: «дорого» — нужна цена в рублях, не больше 2 знаков после запятой; ' +
      'Тип доставки: «самолёт» — допустимо door, pickup_point, terminal, post_office или unknown',
  );
  expect(await desk.call('ratecards:list')).toEqual([]);
});

test('an Excel 97–2003 file is named in one line, not as a list of bad lines', async ({ page }) => {
  await openDialog(page);
  const xls = Buffer.concat([
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
    Buffer.alloc(1024),
  ]);
  await choose(page, 'prices.xls', xls, 'application/vnd.ms-excel');
  const problems = page.getByTestId('ratecard-problems');
  await expect(problems).toHaveText(
    'Это файл Excel 97–2003 (.xls) или защищённый паролем — сохраните его как «Книга Excel (.xlsx)» или «CSV UTF-8».',
  );
  await expect(page.getByTestId('ratecard-problem')).toHaveCount(0);
  await expect(problems).not.toContainText('Строка');
});

test('the template downloads as CSV and as Excel, with Russian headers, and imports back', async ({
  page,
}) => {
  await openDialog(page);
  const dialog = page.getByTestId('ratecard-import-dialog');
  await expect(dialog.getByTestId('ratecard-template')).toContainText('Шаблон с примером:');

  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('ratecard-template-csv').click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('ratecard-template.csv');
  const text = readFileSync((await csv.path())!, 'utf8');
  expect(text.startsWith('\uFEFFоткуда;куда;вес до, г;цена, ₽;срок от;срок до;тип доставки;')).toBe(true);
  expect(text.trim().split(/\r?\n/)).toHaveLength(3);

  const xlsxDownload = page.waitForEvent('download');
  await page.getByTestId('ratecard-template-xlsx').click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toBe('ratecard-template.xlsx');
  const bytes = readFileSync((await xlsx.path())!);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  expect(wb.worksheets[0]!.getRow(1).getCell(4).value).toBe('цена, ₽');

  // The downloaded files import back as they are.
  await choose(page, 'ratecard-template.xlsx', bytes, XLSX);
  await expect(page.getByTestId('ratecard-file-ok')).toHaveText('Файл прочитан: 2 строки, 2 услуги.');
  await choose(page, 'ratecard-template.csv', Buffer.from(text, 'utf8'), 'text/csv');
  await expect(page.getByTestId('ratecard-file-ok')).toHaveText('Файл прочитан: 2 строки, 2 услуги.');
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`the import dialog in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`at 1280×800 and 1024×640 (${lang})`, async ({ page }) => {
      await openDialog(page);
      const header =
        lang === 'ru'
          ? RU_HEADER
          : ['from', 'to', 'max_weight_grams', 'price_rub', 'days_min', 'days_max', 'delivery_type'];
      await choose(
        page,
        'prices.xlsx',
        await workbook([header, ['Москва', 'Атлантида', 1000, 350, 3, 1, 'door']]),
        XLSX,
      );
      await expect(page.getByTestId('ratecard-problem')).toHaveCount(1);
      await screenshot(page, `ratecards-import-xlsx-1280-${lang}`);
      await page.setViewportSize({ width: 1024, height: 640 });
      await expect(page.getByTestId('ratecard-template-xlsx')).toBeInViewport();
      await screenshot(page, `ratecards-import-xlsx-1024-${lang}`);
      await choose(page, 'prices.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'x');
      await expect(page.getByTestId('ratecard-problems')).toHaveAttribute('data-kind', 'old_excel');
      await screenshot(page, `ratecards-import-xls-1024-${lang}`);
    });
  });
}
