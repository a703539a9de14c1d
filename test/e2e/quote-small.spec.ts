// #17 item 7, small windows and interruptions: at 1024×640 the cheapest and the fastest options are named
// on screen without scrolling; the low-balance banner (API requests; desk quotes are free) is not on the
// Quote screen but on Balance, with a mark in the footer; toasts never cover the table and leave with their
// screen.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Boxes read in one frame (the results scroller may move between two separate reads). */
function boxes(page: Page, selectors: string[]): Promise<Box[]> {
  return page.evaluate(
    (list) =>
      list.map((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    selectors,
  );
}

const overlaps = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test.describe('at 1024×640', () => {
  test.use({ viewport: { width: 1024, height: 640 } });

  test('the cheapest and the fastest options are named without scrolling', async ({ page }) => {
    await openApp(page);
    await fillMoscowKazan(page);
    await quote(page);
    const rows = page.getByTestId('rate-row');
    // The table is sorted by price: the fastest options are far below the fold.
    const [fastBox, main] = await boxes(page, [
      '[data-testid="rate-row"]:has([data-testid="badge-fastest"])',
      'main',
    ]);
    expect(fastBox!.y).toBeGreaterThan(main!.y + main!.height);

    const summary = page.getByTestId('quote-summary');
    const [line, mainNow] = await boxes(page, ['[data-testid="quote-summary"]', 'main']);
    expect(line!.y).toBeGreaterThanOrEqual(mainNow!.y);
    expect(line!.y + line!.height).toBeLessThanOrEqual(mainNow!.y + mainNow!.height);
    expect(await page.locator('main').evaluate((el) => el.scrollTop)).toBe(0);

    // It names the options the badges mark, with their prices as the table shows them.
    const cheapestRow = rows.first();
    await expect(summary).toContainText('Дешевле всего:');
    await expect(page.getByTestId('summary-cheapest')).toContainText(
      await cheapestRow.locator('td').nth(0).innerText(),
    );
    await expect(page.getByTestId('summary-cheapest')).toContainText(
      await cheapestRow.locator('td').nth(4).innerText(),
    );
    await expect(summary).toContainText('Быстрее всего:');
    const fastKey = await page.getByTestId('summary-fastest').getAttribute('data-key');
    const fastRow = page.locator(`[data-testid="rate-row"][data-key="${fastKey}"]`);
    await expect(fastRow.getByTestId('badge-fastest')).toHaveCount(1);
    await expect(page.getByTestId('summary-fastest')).toContainText(
      await fastRow.locator('td').nth(4).innerText(),
    );
    await screenshot(page, 'quote-summary-1024-ru');

    // A click on it selects that row and brings it into view (then Ctrl+C copies it).
    await page.getByTestId('summary-fastest').click();
    await expect(fastRow).toHaveAttribute('aria-selected', 'true');
    await expect(fastRow).toBeInViewport();
  });

  test('toasts never cover the table, and leave with their screen', async ({ page }) => {
    await openApp(page);
    await fillMoscowKazan(page);
    await quote(page);
    await page.getByTestId('copy-all').click();
    const toast = page.getByTestId('toast').last();
    await expect(toast).toBeVisible();
    const [t, table, results] = await boxes(page, [
      '[data-testid="toast"]',
      '[data-testid="rates-table"]',
      'main',
    ]);
    expect(overlaps(t!, results!)).toBe(false);
    // The part of the table on screen (the page scrolls inside <main>).
    const top = Math.max(table!.y, results!.y);
    const bottom = Math.min(table!.y + table!.height, results!.y + results!.height);
    expect(bottom - top).toBeGreaterThan(100);
    expect(overlaps(t!, { ...table!, y: top, height: bottom - top })).toBe(false);
    // Scrolled to the end of the table too.
    await page.locator('main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const [t2, main2] = await boxes(page, ['[data-testid="toast"]', 'main']);
    expect(overlaps(t2!, main2!)).toBe(false);
    await screenshot(page, 'quote-toast-1024-ru');

    // The toast was about this screen: it goes with it.
    await page.getByTestId('nav-history').click();
    await expect(page.getByTestId('toast')).toHaveCount(0);
  });
});

test('low balance: no banner on the Quote screen; a footer mark on every screen; the banner on Balance', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  desk.emit('balance:low', { account: 'default', threshold: 100, balance: 99, at: new Date().toISOString() });
  const mark = page.getByTestId('footer-low-balance');
  await expect(mark).toBeVisible();
  await expect(mark).toHaveText('⚠ мало — пополнить');
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
  const before = await page.getByTestId('quote-form').boundingBox();
  // History and Settings stay clear too.
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
  await expect(mark).toBeVisible();

  // The mark leads to Balance, where the banner is, and «Пополнить» goes to the top-up field.
  await mark.click();
  await expect(page.getByTestId('nav-balance')).toHaveAttribute('aria-current', 'page');
  const banner = page.getByTestId('low-balance-banner');
  await expect(banner).toContainText('Мало запросов на счёте «Основной»: осталось 99 запросов.');
  await banner.getByRole('button', { name: 'Пополнить' }).click();
  await expect(page.getByTestId('topup-amount-default')).toBeFocused();
  await screenshot(page, 'balance-low-banner-1280-ru');

  // «Скрыть» hides the banner; the footer still says the balance is low until it is topped up.
  await banner.getByRole('button', { name: 'Скрыть' }).click();
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
  await expect(mark).toBeVisible();
  await page.getByTestId('nav-quote').click();
  expect(await page.getByTestId('quote-form').boundingBox()).toEqual(before);
  const [account] = await desk.call('accounts:list');
  desk.emit('balance:changed', { account_id: account!.id, account: 'default', balance: 5000 });
  await expect(mark).toHaveCount(0);
});

for (const [width, height] of [
  [1280, 800],
  [1024, 640],
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test(`screenshots: summary, toast and low balance at ${width}×${height}, ${lang.toUpperCase()}`, async ({
      page,
      desk,
    }) => {
      await page.setViewportSize({ width, height });
      await openApp(page);
      if (lang === 'en') await page.getByTestId('lang-en').click();
      await fillMoscowKazan(page, lang === 'en' ? '1.2' : '1,2');
      await quote(page);
      desk.emit('balance:low', {
        account: 'default',
        threshold: 100,
        balance: 99,
        at: new Date().toISOString(),
      });
      await expect(page.getByTestId('footer-low-balance')).toBeVisible();
      await page.getByTestId('copy-all').click();
      await expect(page.getByTestId('toast')).toBeVisible();
      await expect(page.getByTestId('quote-summary')).toBeInViewport();
      await screenshot(page, `quote-small-${width}-${lang}`);
      await page.getByTestId('nav-balance').click();
      await expect(page.getByTestId('low-balance-banner')).toBeVisible();
      await screenshot(page, `balance-low-${width}-${lang}`);
    });
  }
}
