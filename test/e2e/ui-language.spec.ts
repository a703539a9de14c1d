// Everything a clerk can see is in the UI language (issue #9): the default account's name, the reasons a
// carrier gave no rate (chips, their tooltips, History), numbers typed into the form; and the small things
// that made the quote form harder to read.
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

const LATIN_WORD = /[A-Za-z]{3,}/;

test('8. the default account is named in the UI language wherever an account name is shown', async ({
  page,
  desk,
}) => {
  await openApp(page, 'balance');
  desk.emit('balance:low', { account: 'default', threshold: 100, balance: 99, at: new Date().toISOString() });
  const banner = page.getByTestId('low-balance-banner');
  await expect(banner).toContainText('Мало запросов на счёте «Основной»: осталось 99 запросов.');
  await expect(banner).not.toContainText('default');
  await expect(page.getByTestId('account-default').getByRole('heading', { level: 2 })).toHaveText('Основной');

  await page.getByTestId('lang-en').click();
  await expect(banner).toContainText('Account “Main” is running low: 99 requests left.');
  await expect(page.getByTestId('account-default').getByRole('heading', { level: 2 })).toHaveText('Main');

  await openApp(page, 'settings/keys');
  await expect(page.getByTestId('key-row').first().locator('td').nth(1)).toHaveText('Main');
  await page.getByTestId('key-create').click();
  await expect(page.getByTestId('key-create-account').locator('option:checked')).toHaveText('Main');
});

async function chipTitles(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="carrier-status-"][data-state="unavailable"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
}

test('9. failed carriers are explained in the UI language: chips, tooltips and History', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  for (const [code, text] of [
    ['999913', 'СДЭК: нет доставки по этому маршруту'],
    ['999912', 'СДЭК: ошибка на стороне перевозчика'],
  ] as const) {
    await page.getByTestId('to-postal').fill(code);
    await quote(page);
    await expect(page.getByTestId('carrier-status-cdek')).toContainText(text);
    const titles = await chipTitles(page);
    expect(titles).toHaveLength(1);
    expect(titles[0]).not.toBe('');
    expect(titles[0]).not.toMatch(LATIN_WORD);
  }
  await page.getByTestId('lang-en').click();
  // The carrier's name is in the UI language too (#17): CDEK.
  await expect(page.getByTestId('carrier-status-cdek')).toContainText('CDEK: error on the carrier side');
  expect(await chipTitles(page)).toEqual([
    'The carrier answered with an error. It usually passes; try again later.',
  ]);

  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().click();
  const notRated = page.getByTestId('history-not-rated');
  await expect(notRated).toHaveText('Not quoted: CDEK — error on the carrier side');
  await page.getByTestId('lang-ru').click();
  await expect(notRated).toHaveText('Не рассчитано: СДЭК — ошибка на стороне перевозчика');
  expect(await notRated.locator('[title]').getAttribute('title')).not.toMatch(LATIN_WORD);
});

test('numbers in the form follow the UI language, both separators accepted', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await page.getByTestId('declared-value').fill('1 500,50');
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('weight')).toHaveValue('1.2');
  await expect(page.getByTestId('declared-value')).toHaveValue('1 500.50');
  // Typed with a comma in English: read as a decimal, shown with a point once the field is left.
  await page.getByTestId('weight').fill('2,5');
  await page.getByTestId('length').click();
  await expect(page.getByTestId('weight')).toHaveValue('2.5');
  await quote(page);
  await expect(page.getByTestId('result-for')).toContainText('2.5\u00a0kg');
  await page.getByTestId('lang-ru').click();
  await expect(page.getByTestId('weight')).toHaveValue('2,5');
  await expect(page.getByTestId('results')).toHaveAttribute('data-outdated', 'false');
});

test('the quote form: hints look like hints, messages never move a field, long names have tooltips', async ({
  page,
}) => {
  await openApp(page);
  const weight = page.getByTestId('weight');
  await expect(weight).toHaveAttribute('placeholder', 'напр. 1,2');
  expect(await weight.evaluate((el) => getComputedStyle(el, '::placeholder').fontStyle)).toBe('italic');

  const dims = page.getByTestId('length');
  const before = (await dims.boundingBox())!;
  await page.getByTestId('from-city').fill('Тула');
  await weight.fill('1,2,3');
  await weight.press('Enter');
  await expect(page.getByText('Вес в килограммах, больше 0 и не больше 1000: например 1,2')).toBeVisible();
  await expect(weight).toHaveAttribute('aria-describedby', 'weight-error');
  const after = (await dims.boundingBox())!;
  // The message is under the row, so the next field stays where it was.
  expect(after.x).toBe(before.x);

  await weight.fill('1,2');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('from-postal').fill('300000');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
  await quote(page);
  const names = page.locator('[data-testid="rate-row"] td.cell-service > span');
  expect(await names.count()).toBeGreaterThan(0);
  for (const n of await names.all()) expect(await n.getAttribute('title')).toBe(await n.innerText());
  // One case for every badge, whatever case its words are written in.
  const cases = await page
    .locator('.badge')
    .evaluateAll((els) => els.map((e) => getComputedStyle(e).textTransform));
  expect(new Set(cases)).toEqual(new Set(['uppercase']));
});
