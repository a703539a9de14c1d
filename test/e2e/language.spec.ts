// Russian first, English switchable; the choice persists (localStorage for the first paint, ui.language in
// the core as the truth).
import { expect, openApp, screenshot, test } from './fixtures';

test('language switch: RU → EN changes labels and persists across a restart', async ({ page, desk }) => {
  await openApp(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId('nav-quote')).toHaveText('Расчёт');
  await expect(page.getByTestId('nav-history')).toHaveText('История');
  await expect(page.getByTestId('sandbox-badge')).toHaveText('ПЕСОЧНИЦА');
  await expect(page.getByTestId('submit')).toContainText('Рассчитать');

  await page.getByTestId('lang-en').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('nav-quote')).toHaveText('Quote');
  await expect(page.getByTestId('nav-history')).toHaveText('History');
  await expect(page.getByTestId('nav-carriers')).toHaveText('Carriers');
  await expect(page.getByTestId('nav-balance')).toHaveText('Balance');
  await expect(page.getByTestId('nav-settings')).toHaveText('Settings');
  await expect(page.getByTestId('sandbox-badge')).toHaveText('SANDBOX');
  await expect(page.getByTestId('submit')).toContainText('Get rates');
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');

  // Stored in the core…
  await expect
    .poll(async () => (await desk.call('settings:get')).find((s) => s.name === 'ui.language')?.value)
    .toBe('en');

  // …and still English after a restart, numbers in English format too.
  await page.reload();
  await expect(page.getByTestId('nav-quote')).toHaveText('Quote');
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').fill('1.2');
  await page.getByTestId('box-preset').selectOption({ index: 2 });
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('rate-row').first().locator('td.num')).toHaveText(
    /^\d{1,3}(,\d{3})*\.\d{2}\u00a0₽$/,
  );
  await expect(page.getByTestId('badge-cheapest').first()).toHaveText('CHEAPEST');
  await expect(page.locator('th', { hasText: 'Price' })).toBeVisible();
  await screenshot(page, 'quote-results-en-light');

  // The core's setting wins even over another local choice (a fresh profile on the same data folder).
  await page.evaluate(() => localStorage.setItem('ratedesk.lang', 'ru'));
  await page.reload();
  await expect(page.getByTestId('nav-quote')).toHaveText('Quote');

  await page.getByTestId('lang-ru').click();
  await expect(page.getByTestId('nav-quote')).toHaveText('Расчёт');
  await openApp(page, 'history');
  await expect(page.getByRole('heading', { name: 'История расчётов' })).toBeVisible();
});

test.describe('starting in English', () => {
  test.use({ deskOptions: { settings: { 'ui.language': 'en' } } });

  test('ui.language=en in settings opens the app in English', async ({ page }) => {
    await openApp(page);
    await expect(page.getByTestId('nav-quote')).toHaveText('Quote');
    await expect(page.getByTestId('quote-empty')).toContainText('Where to, and what?');
  });
});
