// «default» (the first account's name in the core, the CLI and /v1) and the carriers' wire codes (`cdek`,
// `russian-post` …) are never words of the Russian UI (#17 item 9): every screen an admin or a clerk opens,
// after a quote and with a key on the account, is read for them as visible text. (Addresses such as
// https://api.cdek.ru and the tooltips that explain the codes are not visible words and are allowed.)
import type { Page } from '@playwright/test';
import { CARRIER_CODES } from '../../core/carriers/types';
import { DEFAULT_ACCOUNT_NAME } from '../../core/contract/account-name';
import { expect, openApp, screenshot, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

const RAW = [DEFAULT_ACCOUNT_NAME, ...CARRIER_CODES];

/** The visible lines holding a raw name as a word of its own (not inside an address or a longer word). */
async function rawWords(page: Page): Promise<string[]> {
  return page.evaluate((words) => {
    const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_/.:-])(${escaped.join('|')})(?![\\p{L}\\p{N}_/.-])`, 'u');
    return document.body.innerText.split('\n').filter((line) => re.test(line));
  }, RAW);
}

test('no «default» and no carrier code on any screen of the Russian UI', async ({ page, desk }) => {
  await desk.call('keys:create', { account: DEFAULT_ACCOUNT_NAME, name: 'Склад' });
  await openApp(page);
  await fillMoscowKazan(page);
  await quote(page);
  const seen: Record<string, string[]> = {};
  for (const screen of [
    'quote',
    'history',
    'carriers',
    'balance',
    'settings/keys',
    'settings/listener',
    'settings/general',
  ]) {
    await openApp(page, screen);
    // Each screen has loaded what it lists (its own data, and the carriers' names where it shows them).
    if (screen === 'carriers') await expect(page.getByTestId('carrier-card-cdek')).toBeVisible();
    if (screen === 'balance') await expect(page.getByTestId(`account-${DEFAULT_ACCOUNT_NAME}`)).toBeVisible();
    if (screen === 'settings/keys') await expect(page.getByTestId('key-revoke').first()).toBeVisible();
    if (screen === 'history') await expect(page.getByTestId('history-row').first()).toContainText('СДЭК');
    seen[screen] = await rawWords(page);
  }
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-row').first().click();
  await expect(page.getByText('Почта России').first()).toBeVisible();
  seen['history detail'] = await rawWords(page);
  expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, []])));

  // The account and the carrier are still named, in Russian; their technical names are in the tooltips.
  await openApp(page, 'balance');
  const account = page.getByTestId(`account-${DEFAULT_ACCOUNT_NAME}`);
  await expect(account.getByRole('heading', { name: 'Основной' })).toHaveAttribute(
    'title',
    'В командах CLI и в API этот счёт называется default',
  );
  await openApp(page, 'carriers');
  await expect(page.getByTestId('carrier-card-cdek').getByRole('heading', { name: 'СДЭК' })).toHaveAttribute(
    'title',
    'Код перевозчика в API и командах CLI: cdek',
  );
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`account and carrier headings in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`at 1280×800 and 1024×640 (${lang})`, async ({ page }) => {
      for (const [w, h] of [
        [1280, 800],
        [1024, 640],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await openApp(page, 'balance');
        await expect(page.getByTestId(`account-${DEFAULT_ACCOUNT_NAME}`)).toBeVisible();
        await screenshot(page, `balance-account-${w}-${lang}`);
        await openApp(page, 'carriers');
        await expect(page.getByTestId('carrier-card-cdek')).toBeVisible();
        await screenshot(page, `carriers-${w}-${lang}`);
      }
    });
  });
}
