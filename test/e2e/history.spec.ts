// History against a real core: the quote made on the Quote screen is listed, searchable, opens with its
// full result; re-run shows the price change; CSV/XLSX downloads carry the right content; curl is copied
// and the copied command really works against the /v1 listener.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import type { SqliteStore } from '../../core/store';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';

const run = promisify(execFile);

async function quoteInUi(page: Page): Promise<void> {
  await openApp(page);
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
}

/** Makes the stored quote's first two prices differ from what the simulators answer now. */
function tamperStoredPrices(desk: Desk, id: number): { dearer: string; cheaper: string } {
  const db = (desk.service.store as SqliteStore).db;
  const row = db.prepare('SELECT result_json FROM quotes WHERE id = ?').get(id) as { result_json: string };
  const result = JSON.parse(row.result_json) as { rates: { service_name: string; price_kopecks: number }[] };
  // Stored 10 ₽ lower → now 10 ₽ dearer (↑); stored 5 ₽ higher → now 5 ₽ cheaper (↓).
  result.rates[0]!.price_kopecks -= 1000;
  result.rates[1]!.price_kopecks += 500;
  db.prepare('UPDATE quotes SET result_json = ? WHERE id = ?').run(JSON.stringify(result), id);
  return { dearer: result.rates[0]!.service_name, cheaper: result.rates[1]!.service_name };
}

test('history: the quote is listed, searchable, opens, re-runs with price changes', async ({
  page,
  desk,
}) => {
  await quoteInUi(page);
  await page.getByTestId('nav-history').click();
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText('Москва → Казань');
  await expect(row).toContainText('1,2\u00a0кг');
  await expect(row).toContainText(/\d,\d{2}\u00a0₽/);
  await expect(row).toContainText('СДЭК');
  await expect(row).toContainText('Почта России');
  await expect(row).toContainText('приложение');
  await expect(row.getByTestId('history-sandbox')).toHaveText('песочница');

  // A /v1 call from a local tool lands here too, marked API.
  const api = await desk.http.postRates({
    from: { city: 'Тула' },
    to: { city: 'Казань', postal_code: '420000' },
    parcel: { weight_grams: 500, length_cm: 10, width_cm: 10, height_cm: 10 },
  });
  expect(api.status).toBe(200);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Тула → Казань');
  await expect(rows.first()).toContainText('API');
  await screenshot(page, 'history-list-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'history-list-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // Search.
  const search = page.getByTestId('history-search');
  await search.fill('Тул');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Тула → Казань');
  await search.fill('Владивосток');
  await expect(page.getByTestId('history-no-match')).toContainText('Владивосток');
  await search.fill('');
  await expect(rows).toHaveCount(2);

  // Open the desk quote.
  const deskRow = rows.filter({ hasText: 'Москва → Казань' });
  const id = Number(await deskRow.getAttribute('data-id'));
  await deskRow.click();
  await expect(page).toHaveURL(new RegExp(`#/history/${id}$`));
  const detail = page.getByTestId('history-detail');
  await expect(detail).toContainText(`Расчёт № ${id}: Москва → Казань`);
  await expect(detail).toContainText('1,2\u00a0кг, 30×20×10 см');
  const stored = await desk.call('history:get', { id });
  await expect(page.getByTestId('history-rates').locator('tbody tr')).toHaveCount(stored.rates.length);

  // Re-run: the same services; make two stored prices differ so the change shows both ways.
  const { dearer, cheaper } = tamperStoredPrices(desk, id);
  await page.getByTestId('rerun').click();
  const changes = page.getByTestId('rerun-changes');
  await expect(changes).toBeVisible();
  await expect(changes.locator('tr', { hasText: dearer }).getByTestId('change-up')).toHaveText(
    /↑ \+10,00\u00a0₽/,
  );
  await expect(changes.locator('tr', { hasText: cheaper }).getByTestId('change-down')).toHaveText(
    /↓ −5,00\u00a0₽/,
  );
  await expect(changes.getByTestId('change-same').first()).toContainText('без изменений');
  await expect(page.getByTestId('toast').last()).toContainText('Повторный расчёт №');
  await screenshot(page, 'history-detail-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'history-detail-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  // The re-run itself is a new history entry.
  await page.getByTestId('history-back').click();
  await expect(rows).toHaveCount(3);
});

test('history: CSV and XLSX exports download with the right content', async ({ page }) => {
  await quoteInUi(page);
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  expect(csv.suggestedFilename()).toMatch(/^ratedesk-history-\d{4}-\d{2}-\d{2}\.csv$/);
  const csvText = (await readFile((await csv.path())!)).toString('utf8');
  const lines = csvText
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toContain('Откуда');
  expect(lines[0]).toContain('Цена, ₽');
  expect(lines.length).toBeGreaterThan(2);
  expect(lines.slice(1).every((l) => l.includes('Москва') && l.includes('Казань'))).toBe(true);
  expect(csvText).toContain('СДЭК');
  await expect(page.getByTestId('download-link')).toContainText('.csv');

  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  const bytes = await readFile((await xlsx.path())!);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).filter(Boolean);
  expect(header).toContain('Откуда');
  const second = (sheet.getRow(2).values as unknown[]).map(String);
  expect(second).toContain('Москва');
  expect(second).toContain('Казань');
  expect(sheet.rowCount).toBe(lines.length);
});

test('history: "Копировать как curl" copies a command that works against /v1', async ({ page, desk }) => {
  await quoteInUi(page);
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().click();
  await page.getByTestId('copy-curl').click();
  await expect(page.getByTestId('toast').last()).toContainText('Команда curl скопирована');
  const command = await page.evaluate(() => navigator.clipboard.readText());
  expect(command).toMatch(/^curl /);
  expect(command).toContain(`127.0.0.1:${desk.port}/v1/rates`);
  expect(command).toContain('RATEDESK_API_KEY');
  expect(command).toContain('Москва');

  const { stdout } = await run('bash', ['-c', command], {
    env: { ...process.env, RATEDESK_API_KEY: desk.apiKey },
    timeout: 15_000,
  });
  const body = JSON.parse(stdout) as { rates: unknown[] };
  expect(body.rates.length).toBeGreaterThan(0);
});

test('history: ↓ from the search box chooses a quote, Enter opens it', async ({ page }) => {
  await quoteInUi(page);
  await page.getByTestId('nav-history').click();
  const search = page.getByTestId('history-search');
  await expect(search).toBeFocused();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await search.press('ArrowDown');
  await expect(page.getByTestId('history-row').first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('history-detail')).toContainText('Москва → Казань');
});
