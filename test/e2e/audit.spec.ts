// Settings → «Журнал действий» (#20) on a local desk, against the real core: admin changes made on screen
// and through the desk's own calls are listed with who, the action in the UI's words and the change; the
// filters narrow it, «Экспорт CSV» saves the file, and an empty filter says so.
import { readFile } from 'node:fs/promises';
import { expect, openApp, screenshot, test } from './fixtures';

test('admin changes are listed in words, filtered by area, who and day, and exported as CSV', async ({
  page,
  desk,
}) => {
  // The fixture's own set-up (its key, its limits) is in the log already.
  const before = (await desk.call('audit:search')).length;
  // Three changes from the desk (this computer, no user): a top-up, a key, a threshold.
  await desk.call('accounts:topup', { account: 'default', requests: 500 });
  await desk.call('keys:create', { name: 'Склад, сервер 1', account: 'default' });
  await desk.call('accounts:set-threshold', { account: 'default', threshold: 'off' });

  await openApp(page, 'settings/audit');
  await expect(page.getByTestId('tab-audit')).toHaveAttribute('aria-selected', 'true');
  const table = page.getByTestId('audit-table');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(before + 3);
  // Newest first, each action in words with the raw name as its tooltip.
  await expect(rows.nth(0)).toContainText('Изменён порог баланса');
  await expect(rows.nth(1)).toContainText('Создан API-ключ');
  await expect(rows.nth(1)).toContainText('Склад, сервер 1');
  await expect(rows.nth(2)).toContainText('Пополнение');
  await expect(rows.nth(2)).toContainText('запросов: 500');
  await expect(rows.nth(2)).toContainText('это рабочее место');
  await expect(page.getByTestId('audit-count')).toContainText(String(before + 3));

  // A change made on screen lands there too.
  await openApp(page, 'settings/keys');
  await page.locator('[data-testid="key-row"][data-key-name="Склад, сервер 1"] button').click();
  await page.getByTestId('revoke-confirm').click();
  await expect(page.getByTestId('toasts')).toContainText('отозван');
  await openApp(page, 'settings/audit');
  await expect(rows).toHaveCount(before + 4);
  await expect(rows.nth(0)).toContainText('Отозван API-ключ');

  // Area: only the keys (the fixture's own key among them, last).
  await page.getByTestId('audit-filter-area').selectOption('keys');
  const keyEntries = (await desk.call('audit:search', { action: 'keys' })).length;
  expect(keyEntries).toBeGreaterThanOrEqual(2);
  await expect(rows).toHaveCount(keyEntries);
  await expect(rows.nth(0)).toContainText('Отозван API-ключ');
  await expect(rows.nth(1)).toContainText('Создан API-ключ');
  await screenshot(page, 'audit-local-1280-ru');

  // CSV of what the filter selects.
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const lines = (await readFile((await file.path())!))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines).toHaveLength(1 + keyEntries);
  expect(lines[0]).toContain('Кто');
  expect(lines.slice(1).every((l) => l.includes('keys:'))).toBe(true);

  // A day with nothing: the empty state says the filter is why.
  await page.getByTestId('audit-filter-to').fill('2020-01-01');
  await expect(page.getByTestId('audit-empty')).toContainText('Измените или сбросьте фильтр');
  // Someone who never did anything: nothing either; reset brings everything back.
  await page.getByTestId('audit-filter-to').fill('');
  await page.getByTestId('audit-filter-actor').fill('nobody');
  await expect(page.getByTestId('audit-empty')).toBeVisible();
  await page.getByTestId('audit-filter-reset').click();
  await expect(rows).toHaveCount(before + 4);
});

test('an area with no entries says so; English works too', async ({ page }) => {
  await openApp(page, 'settings/audit');
  await page.getByTestId('audit-filter-area').selectOption('users');
  await expect(page.getByTestId('audit-empty')).toContainText('Под выбранные условия записей нет');
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('audit-empty')).toContainText('Nothing matches this filter');
  await expect(page.getByTestId('tab-audit')).toHaveText('Audit log');
  await expect(page.getByTestId('audit-export')).toHaveText('Export CSV');
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test.describe(`audit at ${size.width}×${size.height}, ${lang}`, () => {
      test.use({ viewport: size, deskOptions: { settings: { 'ui.language': lang } } });
      test('screenshot', async ({ page, desk }) => {
        await desk.call('accounts:topup', { account: 'default', requests: 1500 });
        await desk.call('keys:create', { name: 'Интеграция с 1С', account: 'default' });
        await desk.call('carriers:update', { code: 'cdek', client_id: 'acct-1', client_secret: 's3cr3t' });
        await desk.call('accounts:set-limits', { account: 'default', rps: 5, burst: 10 });
        const count = (await desk.call('audit:search')).length;
        await openApp(page, 'settings/audit');
        await expect(page.getByTestId('audit-table').locator('tbody tr')).toHaveCount(count);
        // A secret is never shown, only that it changed.
        await expect(page.getByTestId('audit-table')).not.toContainText('s3cr3t');
        await screenshot(page, `audit-${size.width}-${lang}`);
      });
    });
  }
}
