// Issue #17 item 6 (part): after a suggestion is picked, by mouse or keyboard, the cursor moves to the next
// field (from-city → to-city → weight), so a first quote is typed without Tab presses.
import { expect, openApp, test } from './fixtures';

test('Enter on a suggestion moves the cursor on: «Откуда» → «Куда» → «Вес», then the quote', async ({
  page,
}) => {
  await openApp(page);
  await expect(page.getByTestId('from-city')).toBeFocused();
  await page.keyboard.type('Моск');
  await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText('Москва');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('to-city')).toBeFocused();
  await page.keyboard.type('Каз');
  await expect(page.getByTestId('to-suggestions').getByRole('option').first()).toContainText('Казань');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('to-city')).toHaveValue('Казань');
  await expect(page.getByTestId('to-postal')).toHaveValue('420000');
  await expect(page.getByTestId('weight')).toBeFocused();
  await page.keyboard.type('1,2');
  for (const [side, cm] of [
    ['length', '30'],
    ['width', '20'],
    ['height', '10'],
  ] as const) {
    await page.keyboard.press('Tab');
    await expect(page.getByTestId(side)).toBeFocused();
    await page.keyboard.type(cm);
  }
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
});

test('a click on a suggestion moves the cursor on too', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Сам');
  await page
    .getByTestId('from-suggestions')
    .getByRole('option', { name: /Самара/ })
    .click();
  await expect(page.getByTestId('from-city')).toHaveValue('Самара');
  await expect(page.getByTestId('to-city')).toBeFocused();
  await page.keyboard.type('Тул');
  await page.getByTestId('to-suggestions').getByRole('option', { name: /Тула/ }).click();
  await expect(page.getByTestId('to-city')).toHaveValue('Тула');
  await expect(page.getByTestId('weight')).toBeFocused();
});

test('Tab still takes the highlighted suggestion and goes to the next tab stop, the postal code', async ({
  page,
}) => {
  await openApp(page);
  await page.keyboard.type('Каз');
  await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText('Казань');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('from-city')).toHaveValue('Казань');
  await expect(page.getByTestId('from-postal')).toBeFocused();
});
