// Resale prices on a local desk (#21): Settings → «Наценка». An admin adds the desk's rule and an account's
// rule for one carrier with the keyboard, sees what the customer pays for a few carrier prices while typing,
// is told in the field what is wrong (a limit off the rounding step, a third decimal), edits and removes a
// rule; the desk's quote then carries the customer's price. Screenshots at 1280×800 and 1024×640, RU and EN.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';
import { SHIPMENT } from '../helpers/service';

const NBSP = '\u00a0';
const rub = (text: string): string => `${text}${NBSP}₽`.replace(/ /g, '\u202f');

/**
 * Enter in a field saves the form. A keyboard sends the key and its character together; Playwright's press()
 * may send the character after the save's round trip, to the button the closed dialog gave the focus back
 * to, which opens the dialog again. So the key goes down, the dialog closes, then the key comes up.
 */
async function submitByEnter(page: Page): Promise<void> {
  await page.keyboard.down('Enter');
  await expect(page.getByTestId('resale-dialog')).toBeHidden();
  await page.keyboard.up('Enter');
  await page.waitForTimeout(300);
  await expect(page.getByTestId('resale-dialog')).toBeHidden();
}

/** The preview's lines as the page shows them, spaces normalised. */
async function preview(page: Page): Promise<string[]> {
  const items = await page.getByTestId('resale-preview').locator('li').allInnerTexts();
  return items.map((s) => s.replace(/[\s\u00a0\u202f]+/g, ' ').trim());
}

test('resale rules: added by keyboard with a live preview, refused in the field, edited, removed', async ({
  page,
  desk,
}) => {
  await desk.call('accounts:create', { name: 'shop-1' });
  await openApp(page, 'settings/resale');
  await expect(page.getByTestId('resale-empty')).toContainText('Правил нет');

  // The desk's own rule, all carriers: +15 %, rounded up to 10 ₽.
  await page.getByTestId('resale-new').click();
  await expect(page.getByTestId('resale-dialog')).toBeVisible();
  await expect(page.getByTestId('resale-owner')).toBeFocused();
  await expect(page.getByTestId('resale-owner')).toHaveValue('');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('resale-carrier')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('resale-percent')).toBeFocused();
  await page.keyboard.type('15');
  await page.getByTestId('resale-rounding').selectOption('10');
  expect(await preview(page)).toEqual([
    '250,00 ₽ → 290,00 ₽',
    '1 000,00 ₽ → 1 150,00 ₽',
    '5 000,00 ₽ → 5 750,00 ₽',
  ]);

  // A minimum off the rounding step is said under its field, and the cursor goes there.
  await page.getByTestId('resale-min').fill('299,90');
  await page.getByTestId('resale-min').press('Enter');
  await expect(page.locator('#resale-min-error')).toHaveText('Должно делиться на шаг округления');
  await expect(page.getByTestId('resale-min')).toBeFocused();
  await expect(page.getByTestId('resale-form-error')).toHaveText('Исправьте отмеченные поля.');
  await page.getByTestId('resale-min').fill('300');
  await expect(page.locator('#resale-min-error')).toHaveCount(0);
  expect((await preview(page))[0]).toBe('250,00 ₽ → 300,00 ₽');
  await submitByEnter(page);
  await expect(page.getByTestId('resale-row')).toHaveCount(1);

  // An account's rule for CDEK: a fixed markup, packaging in kopecks, a maximum.
  await page.getByTestId('resale-new').click();
  await page.getByTestId('resale-owner').selectOption('shop-1');
  await page.getByTestId('resale-carrier').selectOption('cdek');
  await page.getByTestId('resale-percent').fill('12,345');
  await page.getByTestId('resale-add').fill('50');
  await page.getByTestId('resale-packaging').fill('30,50');
  await page.getByTestId('resale-max').fill('2 000');
  await page.getByTestId('resale-save').click();
  await expect(page.locator('#resale-percent-error')).toHaveText(
    'Процент — не больше двух знаков после запятой',
  );
  await page.getByTestId('resale-percent').fill('');
  await page.getByTestId('resale-save').click();
  await expect(page.getByTestId('resale-dialog')).toBeHidden();

  const rules = await desk.call('pricing:list');
  expect(
    rules.map((r) => [r.account, r.carrier, r.markup_percent, r.markup_kopecks, r.packaging_kopecks]),
  ).toEqual([
    [null, null, 15, 0, 0],
    ['shop-1', 'cdek', 0, 5_000, 3_050],
  ]);
  expect(rules.map((r) => [r.min_kopecks, r.max_kopecks, r.rounding])).toEqual([
    [30_000, null, '10'],
    [null, 200_000, 'none'],
  ]);
  const shopRow = page.locator('[data-testid="resale-row"][data-owner="shop-1"]');
  await expect(shopRow).toContainText('СДЭК');
  await expect(shopRow).toContainText(rub('+50,00'));
  await expect(shopRow).toContainText(rub('до 2 000,00'));
  // A rule already there for the pair is said before saving: saving replaces it.
  await page.getByTestId('resale-new').click();
  await page.getByTestId('resale-owner').selectOption('shop-1');
  await page.getByTestId('resale-carrier').selectOption('cdek');
  await expect(page.getByTestId('resale-replaces')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('resale-dialog')).toBeHidden();

  // Editing keeps whose rule it is; the cursor starts at the percentage.
  await page.locator('[data-testid="resale-row"][data-owner=""]').getByTestId('resale-edit').click();
  await expect(page.getByTestId('resale-percent')).toBeFocused();
  await expect(page.getByTestId('resale-percent')).toHaveValue('15');
  await expect(page.getByTestId('resale-owner')).toBeDisabled();
  await page.getByTestId('resale-percent').fill('10');
  await submitByEnter(page);
  await expect(page.getByTestId('resale-dialog')).toBeHidden();
  await expect(page.locator('[data-testid="resale-row"][data-owner=""]')).toContainText(`+10${NBSP}%`);

  // The desk's quote carries the customer's price by the desk's rule.
  const quote = await desk.call('quote:run', { quoteKey: 'resale-e2e', shipment: SHIPMENT });
  expect(quote.rates.length).toBeGreaterThan(0);
  for (const r of quote.rates)
    expect(r.customer_price_kopecks).toBe(
      Math.max(30_000, Math.ceil((r.price_kopecks + Math.ceil(r.price_kopecks / 10)) / 1_000) * 1_000),
    );

  // Removing asks first, the cursor on «Оставить».
  await shopRow.getByTestId('resale-remove').click();
  await expect(page.getByTestId('resale-remove-confirm')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Оставить' })).toBeFocused();
  await page.getByTestId('resale-remove-confirm-button').click();
  await expect(shopRow).toHaveCount(0);
  expect((await desk.call('pricing:list')).map((r) => r.account)).toEqual([null]);
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`resale rules in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`screenshots at 1280×800 and 1024×640 (${lang})`, async ({ page, desk }) => {
      await desk.call('accounts:create', { name: 'marketplace-partner-long-name' });
      await desk.call('accounts:create', { name: 'shop-1' });
      await desk.call('pricing:set', {
        account: null,
        carrier: null,
        markup_percent: 12.5,
        min_kopecks: 30_000,
        rounding: '10',
      });
      await desk.call('pricing:set', {
        account: 'marketplace-partner-long-name',
        carrier: 'russian-post',
        markup_percent: 7.25,
        markup_kopecks: 5_000,
        packaging_kopecks: 3_050,
        min_kopecks: 25_000,
        max_kopecks: 1_500_000,
        rounding: '5',
      });
      await desk.call('pricing:set', { account: 'shop-1', carrier: null, markup_kopecks: 10_000 });
      for (const [w, h] of [
        [1280, 800],
        [1024, 640],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await openApp(page, 'settings/resale');
        await expect(page.getByTestId('resale-row')).toHaveCount(3);
        await screenshot(page, `resale-tab-${w}-${lang}`);
        // Nothing spills out of the table or out of a cell into the next at either size.
        const spill = await page.getByTestId('resale-table').evaluate((t) => {
          const wrap = t.parentElement!;
          const cells = Array.from(t.querySelectorAll<HTMLElement>('td, th')).filter(
            (c) => c.scrollWidth > c.clientWidth + 1,
          );
          return wrap.scrollWidth - wrap.clientWidth + cells.length;
        });
        expect(spill).toBeLessThanOrEqual(0);
        await page.getByTestId('resale-edit').nth(1).click();
        await expect(page.getByTestId('resale-dialog')).toBeVisible();
        await screenshot(page, `resale-form-${w}-${lang}`);
        await page.keyboard.press('Escape');
      }
    });
  });
}

test.describe('a clerk on a company server', () => {
  test.use({ deskOptions: { company: { join: { user: 'Анна', role: 'clerk' } } } });

  test('reads the server’s rules, changes none, and the server refuses a change', async ({ page, desk }) => {
    await desk.company!.call('pricing:set', { account: null, carrier: 'cdek', markup_percent: 20 });
    await openApp(page, 'settings/resale');
    await expect(page.getByTestId('resale-row')).toHaveCount(1);
    await expect(page.getByTestId('resale-row')).toContainText('СДЭК');
    await expect(page.getByTestId('resale-tab')).toContainText('Правила меняет администратор.');
    await expect(page.getByTestId('resale-new')).toHaveCount(0);
    await expect(page.getByTestId('resale-edit')).toHaveCount(0);
    await expect(page.getByTestId('resale-remove')).toHaveCount(0);
    // The server decides, whatever the window shows: the clerk's desk is refused the change.
    const refused = await page.evaluate(() =>
      window.ratedesk!.pricing.set({ account: null, carrier: null, markup_percent: 1 }),
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await desk.company!.call('pricing:list')).toHaveLength(1);
  });
});
