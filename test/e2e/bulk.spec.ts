// «Пакетный расчёт» (#21 item 6) as a clerk uses it: an Excel file of the day's shipments chosen, the columns
// as suggested (one changed), the bad row listed by its number, every other row quoted with the progress bar,
// a stop halfway that keeps what was quoted, a service chosen for a row, the results saved as CSV with the
// choice. Screenshots at 1280×800 and 1024×640.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CITIES = ['Казань', 'Санкт-Петербург', 'Екатеринбург', 'Самара', 'Пермь'];

async function dayFile(n: number, badAt?: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Отправления');
  ws.addRow(['№ заказа', 'Город получателя', 'Вес, кг', 'Длина', 'Ширина', 'Высота', 'Наложенный платёж']);
  for (let i = 0; i < n; i++)
    ws.addRow([
      `З-${i + 1}`,
      CITIES[i % CITIES.length],
      i === badAt ? 'много' : 1 + (i % 5) / 2,
      30,
      20,
      10,
      i % 3 ? 0 : 1500,
    ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function choose(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByTestId('bulk-file').setInputFiles({ name, mimeType: XLSX, buffer });
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
]) {
  test(`a day's file quoted and saved (${size.width}×${size.height})`, async ({ page }) => {
    // The first quotes of a fresh desk wait for the carriers' directories (the warm-up).
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await openApp(page, 'bulk');
    await expect(page.getByTestId('bulk-empty')).toBeVisible();
    await screenshot(page, `bulk-empty-${size.width}`);
    await choose(page, 'день.xlsx', await dayFile(12, 4));
    await expect(page.getByTestId('bulk-file-line')).toHaveText('день.xlsx: 12 строк');
    // Suggested from the headers.
    await expect(page.getByTestId('bulk-map-to_city')).toHaveValue('1');
    await expect(page.getByTestId('bulk-map-weight_kg')).toHaveValue('2');
    await expect(page.getByTestId('bulk-map-cod_rub')).toHaveValue('6');
    await expect(page.getByTestId('bulk-problems')).toContainText(
      'Строка 6: «Вес, кг»: «много» — не вес от 1 г до 1000 кг',
    );
    await screenshot(page, `bulk-mapping-${size.width}`);
    await page.getByTestId('bulk-run').click();
    await expect(page.getByTestId('bulk-outcome')).toContainText('Готово: 11 строк', { timeout: 60_000 });
    const results = page.getByTestId('bulk-results');
    await expect(results.locator('tbody tr')).toHaveCount(11);
    // Choose the second service of the first row with the keyboard.
    const select = page.getByLabel('Услуга для строки 2');
    await select.focus();
    const second = await select.locator('option').nth(1).getAttribute('value');
    await select.selectOption(second!);
    await screenshot(page, `bulk-results-${size.width}`);
    const download = page.waitForEvent('download');
    await page.getByTestId('bulk-save-csv').click();
    const file = await download;
    const text = readFileSync((await file.path())!, 'utf8');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(13);
    expect(lines[5]).toMatch(/^"6";/);
    const chosenName = /— (.+?):/.exec((await select.locator('option').nth(1).textContent())!)![1]!;
    expect(lines[1]).toContain(`"${chosenName}"`);
  });
}

test('a run stopped halfway keeps the rows quoted', async ({ page, desk }) => {
  test.setTimeout(120_000);
  await desk.call('accounts:create', { name: 'slow', balance: 10 });
  await desk.call('accounts:set-limits', { account: 'slow', rps: 2, burst: 1 });
  await openApp(page, 'bulk');
  await choose(page, 'много.xlsx', await dayFile(60));
  await page.getByTestId('bulk-account').selectOption('slow');
  await page.getByTestId('bulk-run').click();
  await expect(page.getByTestId('bulk-progress')).toBeVisible();
  await expect(page.getByTestId('bulk-progress')).toContainText(/Рассчитано ([3-9]|[1-5]\d) из 60/, {
    timeout: 30_000,
  });
  await screenshot(page, 'bulk-progress-1280');
  await page.getByTestId('bulk-cancel').click();
  const outcome = page.getByTestId('bulk-outcome');
  await expect(outcome).toContainText('Остановлено: рассчитано');
  const done = Number(/рассчитано (\d+) из 60/.exec((await outcome.textContent())!)![1]);
  expect(done).toBeLessThan(60);
  await expect(page.getByTestId('bulk-results').locator('tbody tr')).toHaveCount(done);
});
