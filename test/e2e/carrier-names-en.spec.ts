// Carrier names in the UI language (issue #17: "every visible text in the UI's language"). In English the
// carriers are CDEK, Russian Post, PEK, Dellin, Yandex Delivery wherever a name is shown: the quote table,
// the chips, the summary line, the picker, the copied table, History's list and detail, the Carriers screen,
// Settings → General. The Russian UI keeps СДЭК, Почта России, ПЭК, Деловые Линии, Яндекс Доставка, and a
// switch of language renames them at once.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

const NAMES = {
  cdek: { ru: 'СДЭК', en: 'CDEK' },
  'russian-post': { ru: 'Почта России', en: 'Russian Post' },
  pek: { ru: 'ПЭК', en: 'PEK' },
  dellin: { ru: 'Деловые Линии', en: 'Dellin' },
  yandex: { ru: 'Яндекс Доставка', en: 'Yandex Delivery' },
} as const;
type Code = keyof typeof NAMES;
const CODES = Object.keys(NAMES) as Code[];
const RUSSIAN = CODES.map((c) => NAMES[c].ru);
const ENGLISH = CODES.map((c) => NAMES[c].en);

const clipboard = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

/** The Russian carrier names found in the page's visible text (none may be there in English). */
async function russianNamesShown(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return RUSSIAN.filter((n) => text.includes(n));
}

/** The carrier column of the quote table, per carrier code (first row of each). */
async function tableNames(page: Page): Promise<Partial<Record<Code, string>>> {
  const out: Partial<Record<Code, string>> = {};
  for (const code of CODES) {
    const row = page.locator(`[data-testid="rate-row"][data-carrier="${code}"]`).first();
    if ((await row.count()) > 0) out[code] = (await row.locator('td').first().innerText()).trim();
  }
  return out;
}

async function sizes(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 1024, height: 640 });
  await screenshot(page, `${name}-1024`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('English UI', () => {
  test.use({ deskOptions: { settings: { 'ui.language': 'en' } } });

  test('names carriers in English: table, chips, summary, picker, copy, History, Carriers, Settings', async ({
    page,
  }) => {
    await openApp(page);
    await fillMoscowKazan(page, '1.2');
    await quote(page);

    // The table: every one of the five carriers that answered, by its English name.
    const table = await tableNames(page);
    for (const code of CODES) {
      if (table[code] !== undefined) expect(table[code], code).toBe(NAMES[code].en);
    }
    expect(Object.keys(table).length).toBeGreaterThanOrEqual(4);
    // The chips, whatever each one's state.
    for (const code of CODES) {
      const chip = page.getByTestId(`carrier-status-${code}`);
      await expect(chip).toContainText(NAMES[code].en);
      await expect(chip).not.toContainText(NAMES[code].ru);
    }
    // The summary line names English carriers.
    const summary = page.getByTestId('quote-summary');
    await expect(summary).toBeVisible();
    for (const part of await summary.locator('.summary-carrier').allInnerTexts()) {
      expect(RUSSIAN).not.toContain(part.trim());
    }
    expect(await russianNamesShown(page)).toEqual([]);
    await sizes(page, 'carrier-names-quote-en');

    // The picker's boxes.
    await page.getByTestId('carrier-picker').click();
    for (const code of CODES) {
      const row = page.getByTestId(`carrier-option-${code}`).locator('xpath=..');
      await expect(row).toContainText(NAMES[code].en);
    }
    await expect(page.getByTestId(`carrier-only-cdek`)).toHaveAttribute('aria-label', /CDEK/);
    await page.keyboard.press('Escape');

    // The copied table (tab-separated): the first column in English.
    await page.getByTestId('copy-all').click();
    const lines = (await clipboard(page)).split(/\r?\n/);
    const firstColumn = lines.slice(3).map((l) => l.split('\t')[0]!);
    expect(firstColumn.length).toBeGreaterThan(0);
    for (const name of firstColumn) expect(RUSSIAN).not.toContain(name);
    for (const code of CODES) if (table[code]) expect(firstColumn).toContain(NAMES[code].en);

    // History: the list's carriers and cheapest, then the stored quote's table.
    await page.getByTestId('nav-history').click();
    const row = page.getByTestId('history-row').first();
    await expect(row).toContainText('CDEK');
    expect(await russianNamesShown(page)).toEqual([]);
    await sizes(page, 'carrier-names-history-en');
    await row.click();
    const rates = page.getByTestId('history-rates');
    await expect(rates).toContainText('CDEK');
    for (const code of CODES) if (table[code]) await expect(rates).toContainText(NAMES[code].en);
    expect(await russianNamesShown(page)).toEqual([]);
    await sizes(page, 'carrier-names-history-detail-en');

    // The Carriers screen: index, card titles, switch labels.
    await openApp(page, 'carriers');
    for (const code of CODES) {
      await expect(page.getByTestId(`carrier-card-${code}`).locator('h2')).toHaveText(NAMES[code].en);
      await expect(page.getByTestId(`carrier-index-${code}`)).toContainText(NAMES[code].en);
    }
    expect(await russianNamesShown(page)).toEqual([]);
    await sizes(page, 'carrier-names-carriers-en');

    // Settings → General: the carriers the quote form preselects.
    await openApp(page, 'settings/general');
    for (const code of CODES) {
      await expect(page.getByTestId(`default-carrier-${code}`).locator('xpath=..')).toContainText(
        NAMES[code].en,
      );
    }
    expect(await russianNamesShown(page)).toEqual([]);
  });
});

test('the Russian UI keeps СДЭК, Почта России …, and a language switch renames them live', async ({
  page,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const table = await tableNames(page);
  expect(Object.keys(table).length).toBeGreaterThanOrEqual(4);
  for (const code of CODES) {
    if (table[code] !== undefined) expect(table[code], code).toBe(NAMES[code].ru);
    await expect(page.getByTestId(`carrier-status-${code}`)).toContainText(NAMES[code].ru);
  }
  await page.getByTestId('copy-all').click();
  const firstColumn = (await clipboard(page))
    .split(/\r?\n/)
    .slice(3)
    .map((l) => l.split('\t')[0]!);
  for (const name of firstColumn) expect(ENGLISH).not.toContain(name);
  for (const code of CODES) if (table[code]) expect(firstColumn).toContain(NAMES[code].ru);
  await screenshot(page, 'carrier-names-quote-ru-1280');

  // Switched to English on the same result: the names follow at once, and back.
  await page.getByTestId('lang-en').click();
  for (const code of CODES) {
    if (table[code] !== undefined) {
      await expect(
        page.locator(`[data-testid="rate-row"][data-carrier="${code}"]`).first().locator('td').first(),
      ).toHaveText(NAMES[code].en);
    }
    await expect(page.getByTestId(`carrier-status-${code}`)).toContainText(NAMES[code].en);
  }
  expect(await russianNamesShown(page)).toEqual([]);
  await page.getByTestId('lang-ru').click();
  await expect(page.getByTestId('carrier-status-cdek')).toContainText('СДЭК');

  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-row').first()).toContainText('СДЭК');
  await page.getByTestId('history-row').first().click();
  await expect(page.getByTestId('history-rates')).toContainText('СДЭК');
  await openApp(page, 'carriers');
  for (const code of CODES) {
    await expect(page.getByTestId(`carrier-card-${code}`).locator('h2')).toHaveText(NAMES[code].ru);
  }
  await screenshot(page, 'carrier-names-carriers-ru-1280');
});
