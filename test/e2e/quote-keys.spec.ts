// #17 item 6, fewer keystrokes on the Quote screen: ⇄ is out of the Tab order and Alt+S swaps; Enter quotes
// from every field; «только» on the carrier picker quotes one carrier in one action; the picker never moves
// a field of the form.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

const FORM_CONTROLS = [
  'from-city',
  'from-postal',
  'to-city',
  'to-postal',
  'swap',
  'weight',
  'length',
  'width',
  'height',
  'box-preset',
  'declared-value',
  'carrier-picker',
  'submit',
];

/** Where every control of the form is, read in one frame. */
function layout(page: Page): Promise<string> {
  return page.evaluate(
    (ids) =>
      JSON.stringify(
        ids.map((id) => {
          const r = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
          return [id, Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
        }),
      ),
    FORM_CONTROLS,
  );
}

async function quotesInHistory(desk: Desk): Promise<number> {
  return (await desk.call('history:search', { limit: 500 })).length;
}

test('⇄ is out of the Tab order; Alt+S swaps from any field, in either keyboard layout', async ({ page }) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await expect(page.getByTestId('swap')).toHaveAttribute('tabindex', '-1');
  await page.getByTestId('to-postal').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('weight')).toBeFocused();

  await page.keyboard.press('Alt+S');
  await expect(page.getByTestId('from-city')).toHaveValue('Казань');
  await expect(page.getByTestId('from-postal')).toHaveValue('420000');
  await expect(page.getByTestId('to-city')).toHaveValue('Москва');
  await expect(page.getByTestId('weight')).toBeFocused();
  await expect(page.getByTestId('weight')).toHaveValue('1,2');

  // The Russian layout: the same key reads «ы»; the shortcut goes by the key's place (KeyboardEvent.code).
  await page.getByTestId('to-city').focus();
  const handled = await page.evaluate(() => {
    const e = new KeyboardEvent('keydown', {
      key: 'ы',
      code: 'KeyS',
      altKey: true,
      bubbles: true,
      cancelable: true,
    });
    document.activeElement!.dispatchEvent(e);
    return e.defaultPrevented;
  });
  expect(handled).toBe(true);
  await expect(page.getByTestId('from-city')).toHaveValue('Москва');
  await expect(page.getByTestId('to-city')).toHaveValue('Казань');

  // The shortcuts overlay lists it.
  await page.keyboard.press('F1');
  const row = page.getByTestId('shortcuts').locator('tr', { hasText: 'Поменять «Откуда» и «Куда»' });
  await expect(row).toContainText('Alt + S');
  await page.keyboard.press('Escape');
});

test('Enter quotes from every field of the form, but picks a suggestion while the list is open', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  let quotes = 0;
  for (const id of [
    'from-city',
    'from-postal',
    'to-postal',
    'weight',
    'height',
    'box-preset',
    'declared-value',
    'carrier-picker',
  ]) {
    await page.getByTestId(id).focus();
    await page.keyboard.press('Enter');
    quotes += 1;
    await expect.poll(() => quotesInHistory(desk), { message: `Enter in ${id}` }).toBe(quotes);
    await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  }
  // Enter on a box in the open picker quotes too, and closes the list.
  await page.getByTestId('carrier-picker').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('carrier-option-cdek')).toBeFocused();
  await page.keyboard.press('Enter');
  quotes += 1;
  await expect.poll(() => quotesInHistory(desk)).toBe(quotes);
  await expect(page.getByTestId('carrier-option-cdek')).toHaveCount(0);

  // While the city list is open, Enter takes the suggestion; the next Enter quotes.
  await page.getByTestId('to-city').fill('');
  await page.getByTestId('to-city').pressSequentially('Самар');
  await expect(page.getByTestId('to-suggestions').getByRole('option').first()).toContainText('Самара');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('to-city')).toHaveValue('Самара');
  expect(await quotesInHistory(desk)).toBe(quotes);
  await page.keyboard.press('Enter');
  await expect.poll(() => quotesInHistory(desk)).toBe(quotes + 1);
});

test('«только» quotes one carrier in one action (5 keys instead of 19); the picker never moves a field', async ({
  page,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  const before = await layout(page);

  // From «Отгрузка» (#21; «Ценность» before it), the field before the picker: Tab, Space, Tab, Enter, Enter.
  await page.getByTestId('ship-date').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('carrier-picker')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('carrier-option-cdek')).toBeFocused();
  expect(await layout(page)).toBe(before);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('carrier-only-cdek')).toBeFocused();
  await expect(page.getByTestId('carrier-only-cdek')).toHaveAccessibleName('Только СДЭК');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('carrier-option-cdek')).toHaveCount(0);
  await expect(page.getByTestId('carrier-picker')).toBeFocused();
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('СДЭК');
  expect(await layout(page)).toBe(before);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  const carriers = await page
    .getByTestId('rate-row')
    .evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-carrier')))]);
  expect(carriers).toEqual(['cdek']);
  await expect(page.locator('[data-testid^="carrier-status-"]')).toHaveCount(1);

  // With the mouse: ticking more says how many, in the same place; «Все перевозчики» is one click back.
  await page.getByTestId('carrier-picker').click();
  await page.getByTestId('carrier-option-russian-post').check();
  await page.getByTestId('carrier-option-yandex').check();
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('3 из 8');
  await expect(page.getByTestId('carrier-picker')).toHaveAttribute(
    'title',
    'СДЭК, Почта России, Яндекс Доставка',
  );
  expect(await layout(page)).toBe(before);
  await page.getByTestId('carrier-option-cdek').uncheck();
  await page.getByTestId('carrier-option-russian-post').uncheck();
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('Яндекс Доставка');
  expect(await layout(page)).toBe(before);
  await page.getByTestId('carrier-all').click();
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('все');
  expect(await layout(page)).toBe(before);
});

for (const [width, height] of [
  [1280, 800],
  [1024, 640],
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test(`screenshots: the carrier picker at ${width}×${height}, ${lang.toUpperCase()}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await openApp(page);
      if (lang === 'en') await page.getByTestId('lang-en').click();
      await fillMoscowKazan(page, lang === 'en' ? '1.2' : '1,2');
      await quote(page);
      const before = await layout(page);
      await page.getByTestId('carrier-picker').click();
      await page.getByTestId('carrier-option-dpd').uncheck();
      await page.getByTestId('carrier-option-russian-post').hover();
      expect(await layout(page)).toBe(before);
      await screenshot(page, `quote-picker-${width}-${lang}`);
    });
  }
}
