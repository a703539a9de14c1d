// 4. City names (issue #9): short names and Latin spellings the core resolves («спб», «Питер», «Moscow»)
// become the city's name; a city nobody knows is said at once, with the closest known cities to pick, and a
// quote that could only come back as "no delivery" / "postal code required" is not sent.
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

async function fillParcel(page: Page): Promise<void> {
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
}

test('a misspelt city: the list says so at once and offers the closest; Enter takes it', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Масква');
  const list = page.getByTestId('from-suggestions');
  await expect(page.getByTestId('from-not-found')).toContainText('Такого города нет в справочнике');
  await expect(list.getByRole('option').first()).toContainText('Москва');
  await page.getByTestId('from-city').press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('from-postal')).toHaveValue('101000');
  await expect(page.getByTestId('from-city-notice')).toHaveCount(0);
});

test('a misspelt Latin name is matched to its city; the notice stays until the city is fixed', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Moscov');
  await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText('Москва');
  // Leaving without picking: the form says the city is not recognised and offers the match.
  await page.getByTestId('to-city').click();
  const notice = page.getByTestId('from-city-notice');
  await expect(notice).toContainText('«Moscov» — город не распознан. Может быть: Москва');
  await expect(page.getByTestId('from-city')).toHaveAttribute('aria-describedby', 'from-city-notice');
  await notice.getByTestId('from-city-notice-pick').first().click();
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('from-postal')).toHaveValue('101000');
  await expect(notice).toHaveCount(0);
});

test('an unrecognised city without a postal code is not sent; with a postal code it is', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казнь');
  await fillParcel(page);
  await page.getByTestId('weight').press('Enter');
  const error = page.locator('#to-city-error');
  await expect(error).toContainText('Город не распознан: выберите его из подсказок или укажите индекс.');
  await expect(error).toContainText('Может быть: Казань');
  await expect(page.getByTestId('to-city')).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'idle');
  expect(await desk.call('history:search', {})).toHaveLength(0);

  // A place the table does not know may still be real: with its postal code the quote goes out.
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  await expect(page.locator('#to-city-error')).toHaveCount(0);
  await expect(page.getByTestId('to-city-notice')).toContainText('«Казнь» — город не распознан');
});

test.describe('common short names and Latin spellings', () => {
  for (const [typed, city, postal] of [
    ['спб', 'Санкт-Петербург', '190000'],
    ['Питер', 'Санкт-Петербург', '190000'],
    ['екб', 'Екатеринбург', '620000'],
    ['мск', 'Москва', '101000'],
    ['Moscow', 'Москва', '101000'],
  ] as const) {
    test(`«${typed}» is found, and becomes «${city}» when the field is left`, async ({ page }) => {
      await openApp(page);
      await page.getByTestId('from-city').fill(typed);
      await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText(city);
      // Leaving with the mouse (no pick): the short name becomes the city's name, its postal code filled.
      await page.getByTestId('to-city').click();
      await expect(page.getByTestId('from-city')).toHaveValue(city);
      await expect(page.getByTestId('from-postal')).toHaveValue(postal);
      await expect(page.getByTestId('from-city-notice')).toHaveCount(0);
    });
  }
});
