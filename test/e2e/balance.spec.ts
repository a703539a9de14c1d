// The balance screen against a real core: top-up changes balance and tier, limits override and clear,
// threshold choice, a low-balance crossing driven through /v1/rates shows the banner and a log entry, and
// /v1 charges move the big number live.
import type { Page } from '@playwright/test';
import { SHIPMENT } from '../helpers/service';
import { expect, openApp, screenshot, test } from './fixtures';

const NNBSP = '\u202f';

async function rates(port: number, key: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/v1/rates`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(SHIPMENT),
  });
}

const big = (page: Page, account: string) => page.getByTestId(`balance-${account}`);

test('top-up changes balance and tier; threshold; a /v1 charge crossing it shows the low-balance banner', async ({
  page,
  desk,
}) => {
  await openApp(page, 'balance');
  const acc = page.getByTestId('account-default');
  await expect(big(page, 'default')).toHaveText('100');
  await expect(page.getByTestId('tier-default')).toHaveText('Бесплатный');
  await expect(page.getByTestId('notification-log-empty')).toBeVisible();

  // Top up 400 with the keyboard: type, Enter.
  await page.getByTestId('topup-amount-default').fill('400');
  await page.getByTestId('topup-amount-default').press('Enter');
  await expect(big(page, 'default')).toHaveText('500');
  await expect(page.getByTestId('tier-default')).toHaveText('Платный');
  await expect(acc).toContainText(`Последний пакет: 400`);
  const [after] = await desk.call('accounts:list');
  expect(after).toMatchObject({ name: 'default', balance: 500, tier: 'paid', last_package: 400 });

  // Inline validation: not a whole number.
  await page.getByTestId('topup-amount-default').fill('12,5');
  await page.getByTestId('topup-submit-default').click();
  await expect(acc).toContainText('Нужно целое число');
  expect((await desk.call('accounts:list'))[0]!.balance).toBe(500);
  await page.getByTestId('topup-amount-default').fill('');

  // Threshold: 500. The account sits exactly on it, so a top-up of 1 lifts it above (re-arms it).
  await page.getByTestId('threshold-default').getByRole('radio', { name: '500', exact: true }).check();
  await expect(page.getByTestId('threshold-default-500')).toBeChecked();
  await expect(page.getByTestId('threshold-explain-default')).toContainText('500');
  await expect.poll(async () => (await desk.call('accounts:list'))[0]!.threshold).toBe('500');
  await page.getByTestId('topup-amount-default').fill('1');
  await page.getByTestId('topup-submit-default').click();
  await expect(big(page, 'default')).toHaveText('501');
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);

  // A local tool spends one request with the fixture's key: 501 → 500 crosses the threshold.
  const res = await rates(desk.port, desk.apiKey);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { balance_remaining: number }).balance_remaining).toBe(500);
  await expect(big(page, 'default')).toHaveText('500');
  await expect(page.getByTestId('low-balance-banner')).toBeVisible();
  // The `default` account is named in the UI language (issue #9).
  await expect(page.getByTestId('low-balance-banner')).toContainText('«Основной»');
  await expect(page.getByTestId('low-default')).toBeVisible();
  const log = page.getByTestId('notification-table');
  await expect(log.locator('tbody tr')).toHaveCount(1);
  await expect(log.locator('tbody tr').first()).toContainText('Основной');
  await expect(log.locator('tbody tr').first()).toContainText('500');
  await screenshot(page, 'balance-low-light');

  // The banner is Balance's (#17); other screens mark the footer's count, and the mark leads back here.
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
  await page.getByTestId('footer-low-balance').click();
  await expect(page.getByTestId('balance-screen')).toBeVisible();
  await expect(page.getByTestId('low-balance-banner')).toBeVisible();

  // A top-up above the threshold clears it.
  await page.getByTestId('topup-amount-default').fill('5000');
  await page.getByTestId('topup-amount-default').press('Enter');
  await expect(big(page, 'default')).toHaveText(`5${NNBSP}500`);
  await expect(page.getByTestId('low-balance-banner')).toHaveCount(0);
});

test('limits: override with inline validation, then back to the tier; threshold auto and off', async ({
  page,
  desk,
}) => {
  await openApp(page, 'balance');
  // The fixture gives `default` a generous override so other tests never hit 429.
  await expect(page.getByTestId('limits-source-default')).toHaveText('индивидуальный лимит');
  await page.getByTestId('limits-clear-default').click();
  await expect(page.getByTestId('limits-source-default')).toHaveText('по тарифу «Бесплатный»');
  await expect(page.getByTestId('limits-value-default')).toHaveText('2 запр./с, всплеск до 5');

  await page.getByTestId('limits-edit-default').click();
  await page.getByTestId('limits-rps-default').fill('0');
  await page.getByTestId('limits-burst-default').fill('1,5');
  await page.getByTestId('limits-save-default').click();
  await expect(page.getByTestId('limits-default')).toContainText('Должно быть больше нуля');
  await expect(page.getByTestId('limits-default')).toContainText('Нужно целое число');
  await page.getByTestId('limits-rps-default').fill('2,5');
  await page.getByTestId('limits-burst-default').fill('40');
  await page.getByTestId('limits-burst-default').press('Enter');
  await expect(page.getByTestId('limits-value-default')).toHaveText('2,5 запр./с, всплеск до 40');
  await expect(page.getByTestId('limits-source-default')).toHaveText('индивидуальный лимит');
  expect((await desk.call('accounts:list'))[0]!.limits).toEqual({ rps: 2.5, burst: 40, source: 'override' });

  // Threshold auto before any purchase: explained, never fires; after a 1000 package: 100.
  await page.getByTestId('threshold-default').getByRole('radio', { name: 'авто (10 % пакета)' }).check();
  await expect(page.getByTestId('threshold-explain-default')).toContainText('после первой покупки');
  await page.getByTestId('topup-amount-default').fill('1000');
  await page.getByTestId('topup-submit-default').click();
  await expect(page.getByTestId('threshold-explain-default')).toContainText('Сейчас это 100 запросов');
  // Arrow keys move a radio group's choice: auto → off.
  await page.getByTestId('threshold-default-auto').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('threshold-default-off')).toBeChecked();
  await expect.poll(async () => (await desk.call('accounts:list'))[0]!.threshold).toBe('off');
});

test('create an account; names are checked in the form; the new account gets its own card', async ({
  page,
  desk,
}) => {
  await openApp(page, 'balance');
  await page.getByTestId('account-create').click();
  const dialog = page.getByTestId('account-create-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('account-create-name').fill('магазин 1');
  await page.getByTestId('account-create-submit').click();
  await expect(dialog).toContainText('Только латинские буквы');
  await page.getByTestId('account-create-name').fill('default');
  await page.getByTestId('account-create-name').press('Enter');
  await expect(dialog).toContainText('Счёт с таким названием уже есть');
  await page.getByTestId('account-create-name').fill('shop-42');
  await page.getByTestId('account-create-balance').fill('0');
  await page.getByTestId('account-create-balance').press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(big(page, 'shop-42')).toHaveText('0');
  await expect(page.getByTestId('tier-shop-42')).toHaveText('Бесплатный');
  expect((await desk.call('accounts:list')).map((a) => a.name)).toEqual(['default', 'shop-42']);

  // A /v1 charge on another account's key moves only that account's number, live.
  await desk.call('accounts:topup', { account: 'shop-42', requests: 2000 });
  await expect(big(page, 'shop-42')).toHaveText(`2${NNBSP}000`);
  const key = await desk.http.newKey('shop-42');
  expect((await rates(desk.port, key)).status).toBe(200);
  await expect(big(page, 'shop-42')).toHaveText(`1${NNBSP}999`);
  await expect(big(page, 'default')).toHaveText('100');
  await screenshot(page, 'balance-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'balance-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});
