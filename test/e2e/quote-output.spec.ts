// #17 item 5, getting a quote out of the Quote screen: «Копировать» puts tab-separated columns on the
// clipboard (Excel and 1С paste them as columns), starting with the sandbox marker; «Копировать как текст»
// keeps the readable lines, without repeated words; the current result downloads as CSV and XLSX through
// the core's writers (quote:export).
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';
import { fillMoscowKazan, prices, quote } from './quote-helpers';

const MARKER = '[ПЕСОЧНИЦА — цена не настоящая]';
const clipboard = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

test('«Копировать» writes columns for Excel and 1С; «как текст» stays readable, each word once', async ({
  page,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const rows = page.getByTestId('rate-row');
  const shown = await rows.count();

  await page.getByTestId('copy-all').click();
  await expect(page.getByTestId('toast').last()).toContainText('вставьте в Excel или 1С');
  const lines = (await clipboard(page)).split(/\r?\n/);
  // The marker is the first line of its own; the columns are the same as for live prices.
  expect(lines[0]).toBe(MARKER);
  expect(lines[1]).toBe('Москва → Казань · 1,2\u00a0кг, 30×20×10 см · ценность не указана');
  expect(lines[2]!.split('\t')).toEqual(['Перевозчик', 'Тариф', 'Доставка', 'Срок, дн.', 'Цена, ₽']);
  const cells = lines.slice(3).map((l) => l.split('\t'));
  expect(cells).toHaveLength(shown);
  for (const row of cells) {
    expect(row).toHaveLength(5);
    expect(row[3]).toMatch(/^(\d+|\d+–\d+|)$/);
    expect(row[4]).toMatch(/^\d+,\d{2}$/);
  }
  // Bare numbers in the order shown: a spreadsheet sums and sorts them.
  expect(cells.map((r) => Math.round(Number(r[4]!.replace(',', '.')) * 100))).toEqual(await prices(rows));
  expect(cells.find((r) => r[0] === 'Деловые Линии')?.[2]).toBe('терминал');

  // The arrow beside it: the readable text, from the keyboard. Esc on the menu closes only the menu.
  await page.getByTestId('copy-more').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('copy-text')).toBeFocused();
  await screenshot(page, 'quote-copy-menu-1280-ru');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('copy-text')).toHaveCount(0);
  await expect(page.getByTestId('copy-more')).toBeFocused();
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('copy-text')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast').last()).toContainText('Таблица скопирована');
  const text = await clipboard(page);
  const textLines = text.split('\n');
  expect(textLines[0]).toBe(`${MARKER} Москва → Казань · 1,2\u00a0кг, 30×20×10 см · ценность не указана`);
  expect(textLines).toHaveLength(shown + 1);
  expect(text).not.toContain('\t');
  // «терминал — терминал — терминал» read three times before; «DPD — DPD OPTIMUM» twice.
  expect(text).toContain('Деловые Линии — Автоперевозка, терминал–терминал — 7–9\u00a0дн.');
  expect(text).not.toMatch(/терминал — терминал/);
  expect(text).not.toMatch(/до двери — до двери/);
  expect(text).not.toMatch(/DPD — DPD/);
  expect(text).toContain('Boxberry — Курьером до двери — ');
});

test('the current result downloads as CSV and XLSX, written by the core (quote:export)', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const shown = await page.getByTestId('rate-row').count();
  // Another quote in history: the file holds the one on screen.
  await desk.call('quote:run', {
    quoteKey: 'other',
    shipment: {
      from: { city: 'Москва' },
      to: { city: 'Самара' },
      parcel: { weight_grams: 500, length_cm: 10, width_cm: 10, height_cm: 10 },
    },
  });

  await page.getByTestId('copy-more').click();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('quote-export-csv').click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^ratedesk-quote-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByTestId('toast').last()).toContainText(`Сохранено: ${csv.suggestedFilename()}`);
  const text = await readFile((await csv.path())!, 'utf8');
  expect(text.startsWith('\uFEFF"Дата";"Откуда";"Куда";"Вес, г";"Перевозчик"')).toBe(true);
  const records = text.slice(1).split('\r\n').slice(1, -1);
  expect(records).toHaveLength(shown);
  for (const r of records) {
    expect(r).toContain('"Москва";"Казань";"1200"');
    // «Цены», then (#20) warehouse and author: none on this computer's desk without a warehouse; then (#21)
    // the clerk's columns, starting with no COD and one place.
    expect(r).toContain('"ПЕСОЧНИЦА: цены не настоящие";"";"";"0,00";"1";');
  }
  expect(text).not.toContain('Самара');

  await page.getByTestId('copy-more').click();
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('quote-export-xlsx').click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^ratedesk-quote-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await xlsx.path())!)) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  expect(ws.name).toMatch(/^Расчёт \d+$/);
  expect(ws.rowCount).toBe(shown + 1);
  expect(typeof ws.getRow(2).getCell(8).value).toBe('number');
});

for (const [width, height] of [
  [1280, 800],
  [1024, 640],
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test(`screenshots: the copy menu at ${width}×${height}, ${lang.toUpperCase()}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await openApp(page);
      if (lang === 'en') await page.getByTestId('lang-en').click();
      await fillMoscowKazan(page, lang === 'en' ? '1.2' : '1,2');
      await quote(page);
      // The menu button sits beside «Копировать», on the same line (both read in one frame).
      const [copy, more] = await page.evaluate(() =>
        ['copy-all', 'copy-more'].map((id) =>
          document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().toJSON(),
        ),
      );
      expect(Math.abs(copy.y - more.y)).toBeLessThan(2);
      await page.getByTestId('copy-more').click();
      await expect(page.getByTestId('quote-export-xlsx')).toBeVisible();
      await screenshot(page, `quote-copy-menu-${width}-${lang}`);
    });
  }
}
