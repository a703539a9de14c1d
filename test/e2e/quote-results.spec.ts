// The results of a quote as a clerk relies on them (issue #9): switched-off carriers are never silently
// missing, a result says what it answers and when it is outdated, rows arriving late keep the table in the
// order its header shows without moving the row being read, prices are never clipped, simulated prices
// are marked on the panel and in every copy, the last result survives screen switches and restarts, and
// Esc never wipes the form in one press.
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { ascending, fillMoscowKazan, prices, quote, quoteInCore } from './quote-helpers';
import { heldQuote, holdQuotes } from './stream-control';

const rows = (page: Page): Locator => page.getByTestId('rate-row');

test('1. a carrier switched off in Carriers shows as switched off, with a link that turns it on', async ({
  page,
  desk,
}) => {
  await desk.call('carriers:update', { code: 'cdek', enabled: false });
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);

  const chip = page.getByTestId('carrier-status-cdek');
  await expect(chip).toHaveAttribute('data-state', 'unavailable');
  await expect(chip).toHaveAttribute('data-kind', 'disabled');
  await expect(chip).toContainText('СДЭК: выключен в разделе «Перевозчики»');
  await expect(page.getByTestId('not-rated')).toContainText(
    'Не рассчитано: СДЭК — выключен в разделе «Перевозчики» (включить →)',
  );
  await expect(page.locator('[data-testid="rate-row"][data-carrier="cdek"]')).toHaveCount(0);
  await expect(page.getByTestId('carrier-status-russian-post')).toHaveAttribute('data-state', 'answered');

  // The link opens the carrier's card with its switch focused: Space turns it on.
  await page.getByTestId('not-rated').getByTestId('enable-carrier-cdek').click();
  await expect(page).toHaveURL(/#\/carriers\/cdek$/);
  const sw = page.getByTestId('carrier-enabled-cdek');
  await expect(sw).toBeFocused();
  await page.keyboard.press('Space');
  await expect(sw).toHaveAttribute('aria-checked', 'true');
  expect((await desk.call('carriers:list')).find((c) => c.code === 'cdek')?.enabled).toBe(true);

  await page.getByTestId('nav-quote').click();
  await quote(page);
  await expect(page.getByTestId('carrier-status-cdek')).toHaveAttribute('data-state', 'answered');
});

test('2. a result says what it was computed for, and is marked outdated once the form changes', async ({
  page,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const results = page.getByTestId('results');
  const computedFor = page.getByTestId('result-for');
  // #17: no declared value is said, not left out.
  await expect(computedFor).toHaveText('Москва → Казань · 1,2\u00a0кг, 30×20×10 см · ценность не указана');
  await expect(results).toHaveAttribute('data-outdated', 'false');
  await expect(page.getByTestId('result-outdated')).toHaveCount(0);

  await page.getByTestId('weight').fill('2,5');
  await expect(results).toHaveAttribute('data-outdated', 'true');
  await expect(page.getByTestId('result-outdated')).toContainText('Форма изменилась после расчёта');
  await expect(page.getByTestId('result-outdated-badge')).toHaveText('Устарело');
  // Still the numbers it was computed for.
  await expect(computedFor).toContainText('1,2\u00a0кг');

  // Back to the same question: the result is current again; a new one after Enter.
  await page.getByTestId('weight').fill('1.2');
  await expect(results).toHaveAttribute('data-outdated', 'false');
  await page.getByTestId('to-city').fill('Самара');
  await page.getByTestId('to-postal').fill('');
  await expect(results).toHaveAttribute('data-outdated', 'true');
  await page.getByTestId('weight').fill('2,5');
  await quote(page);
  await expect(results).toHaveAttribute('data-outdated', 'false');
  await expect(computedFor).toContainText('Москва → Самара · 2,5\u00a0кг');
});

test('3. rows that arrive later are inserted in the shown order; the selected row stays put', async ({
  page,
  desk,
}) => {
  const real = await quoteInCore(desk);
  const post = real.rates.filter((r) => r.carrier === 'russian-post');
  const cdek = real.rates.filter((r) => r.carrier === 'cdek');
  // The test is about CDEK's cheaper rows landing above a Russian Post row someone is reading.
  expect(cdek.some((c) => c.price_kopecks < Math.min(...post.map((p) => p.price_kopecks)))).toBe(true);

  await holdQuotes(page);
  await openApp(page);
  await fillMoscowKazan(page);
  await page.getByTestId('weight').press('Enter');
  const held = await heldQuote(page, desk);
  held.progress({ carrier: 'cdek', state: 'waiting' });
  held.progress({ carrier: 'russian-post', state: 'answered', rates: post, elapsedMs: 300 });
  await expect(rows(page)).toHaveCount(post.length);
  expect(ascending(await prices(rows(page)))).toBe(true);

  // The clerk picks the second Russian Post row and reads it.
  const reading = rows(page).nth(1);
  const key = await reading.getAttribute('data-key');
  await reading.click();
  const before = (await reading.boundingBox())!.y;

  held.progress({ carrier: 'cdek', state: 'answered', rates: cdek, elapsedMs: 1900 });
  await expect(rows(page)).toHaveCount(post.length + cdek.length);
  // «Цена ▲» stays true as rows arrive…
  await expect(page.locator('th[aria-sort="ascending"]', { hasText: 'Цена' })).toBeVisible();
  expect(ascending(await prices(rows(page)))).toBe(true);
  // …and the row being read neither lost its selection nor moved on screen.
  const same = page.locator(`tr[data-key="${key}"]`);
  await expect(same).toHaveAttribute('aria-selected', 'true');
  expect(Math.abs((await same.boundingBox())!.y - before)).toBeLessThanOrEqual(1);

  await held.release(real);
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  expect(ascending(await prices(rows(page)))).toBe(true);
  await expect(same).toHaveAttribute('aria-selected', 'true');
});

test.describe('5. at 1024×640', () => {
  test.use({ viewport: { width: 1024, height: 640 } });

  test('prices and badges are never clipped; the chart gives way first', async ({ page }) => {
    await openApp(page);
    await fillMoscowKazan(page);
    await quote(page);
    await expect(page.getByTestId('chart-toggle')).toHaveAttribute('aria-pressed', 'true');
    for (const lang of ['ru', 'en'] as const) {
      await page.getByTestId(`lang-${lang}`).click();
      const wrap = page.getByTestId('results').locator('.table-wrap');
      // No horizontal scrolling inside the table: every column is on screen.
      expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      const panel = (await page.getByTestId('results').boundingBox())!;
      for (const cell of await page
        .locator(
          '[data-testid="rate-row"] td.num, [data-testid="badge-cheapest"], [data-testid="badge-fastest"]',
        )
        .all()) {
        const box = (await cell.boundingBox())!;
        expect(box.x + box.width, await cell.innerText()).toBeLessThanOrEqual(panel.x + panel.width);
        // The text fits its cell (nothing cut with an ellipsis or hidden).
        expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      }
      // The chart is still there, under the table rather than beside it.
      const chart = (await page.getByTestId('price-chart').boundingBox())!;
      const table = (await page.getByTestId('rates-table').boundingBox())!;
      expect(chart.y).toBeGreaterThanOrEqual(table.y + table.height - 1);
    }
  });
});

test('5. at 1280×800 the chart stays beside the table, prices whole', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const chart = (await page.getByTestId('price-chart').boundingBox())!;
  const table = (await page.getByTestId('rates-table').boundingBox())!;
  expect(chart.x).toBeGreaterThanOrEqual(table.x + table.width - 1);
  const wrap = page.getByTestId('results').locator('.table-wrap');
  expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
});

test('6. sandbox prices are marked on the results panel and in every copy', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const results = page.getByTestId('results');
  await expect(results).toHaveAttribute('data-sandbox', 'true');
  await expect(page.getByTestId('results-sandbox-badge')).toHaveText('ПЕСОЧНИЦА');
  await expect(page.getByTestId('results-sandbox')).toContainText('не настоящие');

  const marker = '[ПЕСОЧНИЦА — цена не настоящая]';
  await rows(page).first().click();
  await page.keyboard.press('Control+C');
  await expect(page.getByTestId('toast').last()).toContainText('Вариант скопирован');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    /^\[ПЕСОЧНИЦА — цена не настоящая\] Москва → Казань: /,
  );

  // «Копировать» (columns for Excel and 1С, #17) starts with the marker on a line of its own…
  await page.getByTestId('copy-all').click();
  await expect(page.getByTestId('toast').last()).toContainText('Таблица скопирована');
  const columns = (await page.evaluate(() => navigator.clipboard.readText())).split('\r\n');
  expect(columns[0]).toBe(marker);
  expect(columns).toHaveLength((await rows(page).count()) + 3);
  // …and «Копировать как текст» with it before the heading.
  await page.getByTestId('copy-more').click();
  await page.getByTestId('copy-text').click();
  await expect(page.getByTestId('toast').last()).toContainText('Таблица скопирована');
  const table = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
  expect(table[0]).toBe(`${marker} Москва → Казань · 1,2\u00a0кг, 30×20×10 см · ценность не указана`);
  expect(table).toHaveLength((await rows(page).count()) + 1);

  // A stored sandbox quote copied from History carries it too.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().click();
  await expect(page.getByTestId('history-sandbox-note')).toBeVisible();
  await page.getByTestId('copy-text').click();
  await expect(page.getByTestId('toast').last()).toContainText('Таблица скопирована');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    /^\[ПЕСОЧНИЦА — цена не настоящая\] Расчёт № \d+: Москва → Казань/,
  );
});

test('7. the last result, outdated or not, survives a screen switch and a restart', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(2);
  await page.getByTestId('weight').fill('3');
  await expect(page.getByTestId('results')).toHaveAttribute('data-outdated', 'true');

  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await page.getByTestId('nav-quote').click();
  await expect(rows(page)).toHaveCount(count);
  await expect(page.getByTestId('results')).toHaveAttribute('data-outdated', 'true');
  await expect(page.getByTestId('result-for')).toContainText('Москва → Казань · 1,2\u00a0кг');

  await page.reload();
  await expect(rows(page)).toHaveCount(count);
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('results')).toHaveAttribute('data-outdated', 'true');
  await expect(page.getByTestId('carrier-status-cdek')).toHaveAttribute('data-state', 'answered');
  expect(ascending(await prices(rows(page)))).toBe(true);

  // The next quote replaces it, current again.
  await quote(page);
  await expect(page.getByTestId('results')).toHaveAttribute('data-outdated', 'false');
  await expect(page.getByTestId('result-for')).toContainText('3\u00a0кг');
});

test('10. Esc leaves one thing at a time; clearing the form can be undone', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const count = await rows(page).count();

  // Right after clicking a result row: Esc deselects it and keeps everything.
  await rows(page).nth(1).click();
  await expect(rows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-testid="rate-row"][aria-selected="true"]')).toHaveCount(0);
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(rows(page)).toHaveCount(count);

  // An open suggestion list: Esc closes the list only.
  await page.getByTestId('to-city').focus();
  await page.getByTestId('to-city').press('ArrowDown');
  await expect(page.getByTestId('to-suggestions')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('to-suggestions')).toHaveCount(0);
  await expect(page.getByTestId('to-city')).toHaveValue('Казань');

  // Then Esc clears, asking nothing; «Вернуть» brings form and result back.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('from-city')).toHaveValue('');
  await expect(page.getByTestId('quote-empty')).toBeVisible();
  await page.getByTestId('undo-clear').click();
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('weight')).toHaveValue('1,2');
  await expect(rows(page)).toHaveCount(count);

  // So does Ctrl+Z, while the cleared form is untouched…
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('weight')).toHaveValue('');
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('to-city')).toHaveValue('Казань');
  await expect(page.getByTestId('to-postal')).toHaveValue('420000');
  await expect(rows(page)).toHaveCount(count);

  // …but once the clerk types again, Ctrl+Z is the field's own undo, not ours.
  await page.keyboard.press('Escape');
  await page.getByTestId('from-city').fill('Тула');
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('to-city')).toHaveValue('');
});
