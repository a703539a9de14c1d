// Issue #17 item 2: the city field never picks the wrong town. Suggestions rank by how people write (a town
// within Moscow is found as such, an exact name beats a prefix, a big city beats namesakes); a doubtful pick
// (namesakes, or a town that only starts with what was typed) asks in the field before a quote goes out; a
// postal index is its town, and an index alone is enough; the Latin layout is read as Russian.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';

async function fillParcel(page: Page): Promise<void> {
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
}

async function pickFrom(page: Page, typed: string, city: string): Promise<void> {
  await page.getByTestId('from-city').fill(typed);
  await expect(page.getByTestId('from-suggestions').getByRole('option').first()).toContainText(city);
  await page.getByTestId('from-city').press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue(city);
}

async function lastQuote(desk: Desk) {
  const [row] = await desk.call('history:search', { text: '', limit: 1 });
  return row ? desk.call('history:get', { id: row.id }) : null;
}

const options = (page: Page, side = 'to') => page.getByTestId(`${side}-suggestions`).getByRole('option');

test('«Зеленоград» is the Moscow town, first; Enter takes it and the quote goes to 124482', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await pickFrom(page, 'Москва', 'Москва');
  const to = page.getByTestId('to-city');
  await to.fill('Зеленоград');
  await expect(options(page).first()).toContainText('Зеленоград');
  await expect(options(page).first()).toContainText('Москва');
  await expect(options(page).first()).toContainText('124482');
  await expect(options(page).nth(1)).toContainText('Зеленоградск');
  await screenshot(page, 'quote-city-zelenograd-light');
  await to.press('Enter');
  await expect(to).toHaveValue('Зеленоград');
  await expect(page.getByTestId('to-postal')).toHaveValue('124482');
  await fillParcel(page);
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  expect((await lastQuote(desk))?.shipment.to).toMatchObject({ city: 'Зеленоград', postal_code: '124482' });
});

test('a town that only starts with the text asks first; Esc goes back, Enter confirms', async ({ page }) => {
  await openApp(page);
  const to = page.getByTestId('to-city');
  await to.fill('Зеленоград');
  await expect(options(page).nth(1)).toContainText('Зеленоградск');
  await to.press('ArrowDown');
  await to.press('Enter');
  const question = page.getByTestId('to-question');
  await expect(question).toHaveText(
    'Вы ввели «Зеленоград», а это другой город — Зеленоградск, Калининградская область. Верно?',
  );
  // Nothing is taken yet: the text is as typed, the cursor still in the field.
  await expect(to).toHaveValue('Зеленоград');
  await expect(to).toBeFocused();
  await expect(options(page)).toHaveCount(2);
  await expect(options(page).nth(0)).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, 'quote-city-far-question-light');
  await to.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(to).toHaveValue('Зеленоград');
  await to.press('ArrowDown');
  await to.press('Enter');
  await expect(question).toBeVisible();
  await to.press('Enter');
  await expect(to).toHaveValue('Зеленоградск');
  await expect(page.getByTestId('to-postal')).toHaveValue('238326');
  await expect(page.getByTestId('weight')).toBeFocused();
});

test('namesakes: the bigger town first, and a pick asks which; a typed one is never sent as a guess', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await pickFrom(page, 'Москва', 'Москва');
  const to = page.getByTestId('to-city');
  await to.fill('Троицк');
  await expect(options(page).nth(0)).toContainText('Челябинская область');
  await expect(options(page).nth(1)).toContainText('Москва');
  await to.press('Enter');
  await expect(page.getByTestId('to-question')).toHaveText('Городов «Троицк» несколько — какой нужен?');
  await to.press('ArrowDown');
  await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await to.press('Enter');
  await expect(to).toHaveValue('Троицк');
  await expect(page.getByTestId('to-postal')).toHaveValue('108840');
  await expect(page.getByTestId('weight')).toBeFocused();

  // Typed and left without a pick: the form says so, and Enter does not send the core's guess.
  await to.fill('Павловск');
  await page.getByTestId('to-postal').fill('');
  await fillParcel(page);
  await expect(page.getByTestId('to-city-notice')).toContainText(
    '«Павловск» — городов с таким названием несколько',
  );
  await page.getByTestId('weight').press('Enter');
  await expect(page.locator('#to-city-error')).toContainText('Уточните, какой город');
  await expect(page.getByTestId('to-question')).toHaveText('Городов «Павловск» несколько — какой нужен?');
  await expect(to).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'idle');
  expect(await desk.call('history:search', {})).toHaveLength(0);
  await screenshot(page, 'quote-city-namesakes-light');
  // The St Petersburg one: chosen, then Enter in the weight field quotes.
  await to.press('ArrowDown');
  await to.press('Enter');
  await expect(page.getByTestId('to-postal')).toHaveValue('196620');
  await expect(page.locator('#to-city-error')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  expect((await lastQuote(desk))?.shipment.to).toMatchObject({ city: 'Павловск', postal_code: '196620' });
});

test('a postal index in the city field is its town; an index alone, city empty, is enough', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await pickFrom(page, 'Москва', 'Москва');
  const to = page.getByTestId('to-city');
  await to.fill('420111');
  await expect(options(page).first()).toContainText('Казань');
  await expect(options(page).first()).toContainText('420111');
  await to.press('Enter');
  await expect(to).toHaveValue('Казань');
  await expect(page.getByTestId('to-postal')).toHaveValue('420111');

  // Only the index: the quote goes, and the city fills in from it.
  await to.fill('');
  await page.getByTestId('to-postal').fill('420000');
  await fillParcel(page);
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  await expect(to).toHaveValue('Казань');
  expect((await lastQuote(desk))?.shipment.to).toMatchObject({ city: 'Казань', postal_code: '420000' });
});

test('the Latin layout is read as Russian: «Rfpfym» is Казань, «Vjcrdf» is Москва', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Vjcrdf');
  await expect(options(page, 'from').first()).toContainText('Москва');
  await page.getByTestId('from-city').press('Enter');
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('from-postal')).toHaveValue('101000');
  const to = page.getByTestId('to-city');
  await expect(to).toBeFocused();
  await page.keyboard.type('Rfpfym');
  await expect(options(page).first()).toContainText('Казань');
  // Leaving the field without a pick: the text becomes the city's name.
  await page.getByTestId('weight').click();
  await expect(to).toHaveValue('Казань');
  await expect(page.getByTestId('to-postal')).toHaveValue('420000');
});

for (const [lang, size] of [
  ['ru', { width: 1024, height: 640 }],
  ['en', { width: 1280, height: 800 }],
  ['en', { width: 1024, height: 640 }],
] as const) {
  test.describe(`the question, ${lang} ${size.width}×${size.height}`, () => {
    test.use({ viewport: size, deskOptions: { settings: { 'ui.language': lang } } });
    test('screenshots', async ({ page }) => {
      await openApp(page);
      const to = page.getByTestId('to-city');
      await to.fill('Троицк');
      await expect(options(page)).toHaveCount(2);
      await to.press('Enter');
      await expect(page.getByTestId('to-question')).toBeVisible();
      await screenshot(page, `quote-city-question-${lang}-${size.width}`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, `quote-city-question-${lang}-${size.width}-dark`);
      await page.emulateMedia({ colorScheme: 'light' });
      await to.press('Escape');
      await page.getByTestId('weight').click();
      await expect(page.getByTestId('to-city-notice')).toBeVisible();
      await screenshot(page, `quote-city-notice-${lang}-${size.width}`);
    });
  });
}
