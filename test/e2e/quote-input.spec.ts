// Issue #17 item 10: input the way clerks type. Units in the weight and value fields are read, not refused;
// a weight of 10 g or less is asked about before it is quoted; an error line never moves the fields below
// it; «Ценность» says «не указана» when none was given.
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';

async function fillRoute(page: Page): Promise<void> {
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });
}

async function lastShipment(desk: Desk) {
  const [row] = await desk.call('history:search', { text: '', limit: 1 });
  return row ? (await desk.call('history:get', { id: row.id })).shipment : null;
}

for (const [weight, value, grams, kopecks] of [
  ['1,2 кг', '1500 руб', 1200, 150_000],
  ['1.2 kg', '1 500 ₽', 1200, 150_000],
  ['1200 г', '1500р', 1200, 150_000],
  ['1,2', '', 1200, 0],
] as const) {
  test(`weight «${weight}» and value «${value}» are read as typed`, async ({ page, desk }) => {
    await openApp(page);
    await fillRoute(page);
    await page.getByTestId('weight').fill(weight);
    await page.getByTestId('declared-value').fill(value);
    await page.getByTestId('declared-value').press('Enter');
    await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
    await expect(page.getByTestId('parcel-messages')).toHaveText('');
    const shipment = await lastShipment(desk);
    expect(shipment?.parcel?.weight_grams).toBe(grams);
    expect(shipment?.declared_value_kopecks).toBe(kopecks);
  });
}

test('10 g is asked about: Enter again quotes it as typed, «Нет, 10 кг» corrects it', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await fillRoute(page);
  const weight = page.getByTestId('weight');
  await weight.fill('10 г');
  await weight.press('Enter');
  const question = page.getByTestId('weight-light');
  await expect(question).toContainText('10 г? Проверьте — может быть, 10 кг.');
  await expect(weight).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'idle');
  expect(await desk.call('history:search', {})).toHaveLength(0);
  await screenshot(page, 'quote-light-weight-light');
  // «Нет, 10 кг»: the number was kilograms.
  await page.getByTestId('weight-light-kg').click();
  await expect(weight).toHaveValue('10');
  await expect(question).toHaveCount(0);
  await weight.press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  expect((await lastShipment(desk))?.parcel?.weight_grams).toBe(10_000);

  // A few grams on purpose: asked once, the second Enter quotes.
  await weight.fill('0,005');
  await weight.press('Enter');
  await expect(question).toContainText('5 г? Проверьте — может быть, 5 кг.');
  await weight.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('result-for')).toContainText('0,005\u00a0кг');
  expect((await lastShipment(desk))?.parcel?.weight_grams).toBe(5);
});

async function top(l: Locator): Promise<number> {
  const box = await l.boundingBox();
  if (!box) throw new Error('not on screen');
  return box.y;
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
]) {
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('an error line never moves the fields below it', async ({ page }) => {
      await openApp(page);
      const weight = page.getByTestId('weight');
      const results = page.getByTestId('results');
      const before = { weight: await top(weight), results: await top(results) };
      // Errors in both rows at once: no city, an unreadable weight, a bad value.
      await page.getByTestId('weight').fill('много');
      await page.getByTestId('declared-value').fill('дорого');
      await page.getByTestId('weight').press('Enter');
      await expect(page.locator('#from-city-error')).toBeVisible();
      await expect(page.locator('#weight-error')).toBeVisible();
      expect(await top(weight)).toBe(before.weight);
      expect(await top(results)).toBe(before.results);
      await screenshot(page, `quote-errors-ru-${size.width}`);
      // And they go away without moving anything back.
      await page.getByTestId('weight').fill('1,2');
      await page.getByTestId('declared-value').fill('');
      await fillRoute(page);
      await page.getByTestId('weight').press('Enter');
      await expect(results).toHaveAttribute('data-phase', 'done');
      await expect(page.locator('#weight-error')).toHaveCount(0);
      expect(await top(weight)).toBe(before.weight);
    });
  });
}

test('«Ценность» reads «не указана» when none was given, in the field and in the result', async ({
  page,
}) => {
  await openApp(page);
  await expect(page.getByTestId('declared-value')).toHaveAttribute('placeholder', 'не указана');
  await fillRoute(page);
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('result-for')).toHaveText(
    'Москва → Казань · 1,2\u00a0кг, 30×20×10 см · ценность не указана',
  );
  await page.getByTestId('declared-value').fill('1 500');
  await page.getByTestId('declared-value').press('Enter');
  await expect(page.getByTestId('result-for')).toContainText('ценность 1\u00a0500,00\u00a0₽');
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('declared-value')).toHaveAttribute('placeholder', 'not stated');
});

for (const lang of ['ru', 'en'] as const) {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    test.describe(`screens, ${lang} ${size.width}×${size.height}`, () => {
      test.use({ viewport: size, deskOptions: { settings: { 'ui.language': lang } } });
      test('the weight question and a result without a declared value', async ({ page }) => {
        await openApp(page);
        await fillRoute(page);
        await page.getByTestId('weight').fill(lang === 'ru' ? '5 г' : '5 g');
        await page.getByTestId('weight').press('Enter');
        await expect(page.getByTestId('weight-light')).toBeVisible();
        await screenshot(page, `quote-light-weight-${lang}-${size.width}`);
        await page.getByTestId('weight').press('Enter');
        await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
        await expect(page.getByTestId('result-for')).toContainText(
          lang === 'ru' ? 'ценность не указана' : 'no declared value',
        );
        await screenshot(page, `quote-result-no-value-${lang}-${size.width}`);
      });
    });
  }
}
