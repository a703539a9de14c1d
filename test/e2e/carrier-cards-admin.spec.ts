// The carrier cards for an admin (#17 item 9): in the sandbox no card warns about missing credentials (a
// simulator answers, nothing is missing; live mode still warns), and where a carrier is reached is one
// control: the published hosts, the simulator, or an address of one's own typed under that choice.
// Screenshots at 1280×800 and 1024×640, RU and EN.
import type { Page } from '@playwright/test';
import { CARRIER_CODES } from '../../core/carriers/types';
import { expect, openApp, screenshot, test } from './fixtures';

const card = (page: Page, code: string) => page.getByTestId(`carrier-card-${code}`);

test('sandbox: no card warns about missing credentials; live mode does', async ({ page, desk }) => {
  await openApp(page, 'carriers');
  await expect(page.getByTestId('carriers-sandbox-note')).toBeVisible();
  await expect(page.getByTestId('carrier-credentials-cdek')).toBeVisible();
  for (const code of CARRIER_CODES) {
    await expect(card(page, code)).toBeVisible();
    await expect(page.getByTestId(`carrier-needs-credentials-${code}`)).toHaveCount(0);
  }
  await expect(page.getByTestId('carrier-list')).not.toContainText('НЕТ УЧЁТНЫХ ДАННЫХ');
  // The credentials section says why they are not needed now.
  await expect(page.getByTestId('carrier-credentials-cdek')).toContainText('В песочнице не нужны');

  await desk.call('settings:set', { name: 'sandbox', value: 'off' });
  await page.reload();
  await expect(page.getByTestId('carriers-sandbox-note')).toHaveCount(0);
  await expect(page.getByTestId('carrier-needs-credentials-cdek')).toHaveText('НЕТ УЧЁТНЫХ ДАННЫХ');
  // Russian Post's public calculator needs no account: never warned about.
  await expect(page.getByTestId('carrier-needs-credentials-russian-post')).toHaveCount(0);
});

test('where a carrier is reached is one control; an own address is typed under «Свой адрес»', async ({
  page,
  desk,
}) => {
  await openApp(page, 'carriers');
  const cdek = card(page, 'cdek');
  const section = page.getByTestId('carrier-endpoint-cdek');
  const stored = (key: string) => () => desk.service.store.settings.get(`carriers.cdek.${key}`);
  // One section says where the carrier is reached: no separate «Адрес API» with a second address field.
  await expect(cdek.getByRole('heading', { name: 'Куда обращаться' })).toHaveCount(1);
  await expect(cdek.getByRole('heading', { name: 'Адрес API' })).toHaveCount(0);
  await expect(cdek.getByRole('radio')).toHaveCount(4);
  await expect(page.getByTestId('carrier-endpoint-cdek-production')).toBeChecked();
  await expect(page.getByTestId('carrier-base-url-cdek')).toHaveCount(0);
  await expect(cdek.locator('input[type="url"]')).toHaveCount(0);

  // «Свой адрес» opens its address under it; nothing is stored until the address is saved.
  await page.getByTestId('carrier-endpoint-cdek-custom').check();
  const address = page.getByTestId('carrier-base-url-cdek');
  await expect(address).toBeVisible();
  await expect(address).toHaveValue('');
  expect(await stored('endpoint')()).toBeUndefined();
  await address.fill('ftp://proxy.local');
  await address.press('Enter');
  await expect(section).toContainText('Адрес должен начинаться с https:// или http://');
  expect(await stored('endpoint')()).toBeUndefined();
  // Cancel: back to what is stored.
  await page.getByTestId('carrier-base-url-cancel-cdek').click();
  await expect(page.getByTestId('carrier-endpoint-cdek-production')).toBeChecked();
  await expect(address).toHaveCount(0);

  // An address of one's own: stored as the custom endpoint with its host.
  await page.getByTestId('carrier-endpoint-cdek-custom').check();
  await address.fill('https://proxy.local:8443/cdek');
  await address.press('Enter');
  await expect.poll(stored('endpoint')).toBe('custom');
  await expect.poll(stored('base_url')).toBe('https://proxy.local:8443/cdek');
  await expect(page.getByText('СДЭК: свой адрес сохранён')).toBeVisible();
  await expect(page.getByTestId('carrier-endpoint-cdek-custom')).toBeChecked();
  await expect(section).toContainText('https://proxy.local:8443/cdek');
  await screenshot(page, 'carrier-endpoint-custom-1280-ru');

  // The carrier's own test host typed by hand is that choice, not a «custom» copy of it.
  await address.fill('https://api.edu.cdek.ru/v2/');
  await page.getByTestId('carrier-base-url-save-cdek').click();
  await expect.poll(stored('endpoint')).toBe('test');
  await expect(page.getByTestId('carrier-endpoint-cdek-test')).toBeChecked();
  await expect(address).toHaveCount(0);

  // Production again: the core's host, the custom one forgotten (settings keep only deviations).
  await page.getByTestId('carrier-endpoint-cdek-production').check();
  await expect.poll(stored('endpoint')).toBeUndefined();
  const view = (await desk.call('carriers:list')).find((c) => c.code === 'cdek');
  expect(view?.base_url).toBe('https://api.cdek.ru/v2');
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`carrier cards in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`screenshots at 1280×800 and 1024×640 (${lang})`, async ({ page }) => {
      for (const [w, h] of [
        [1280, 800],
        [1024, 640],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await openApp(page, 'carriers/cdek');
        await expect(card(page, 'cdek')).toBeInViewport();
        await screenshot(page, `carrier-card-sandbox-${w}-${lang}`);
        await page.getByTestId('carrier-endpoint-cdek-custom').check();
        await page.getByTestId('carrier-base-url-cdek').fill('https://proxy.local:8443/cdek');
        await page.getByTestId('carrier-endpoint-cdek').scrollIntoViewIfNeeded();
        await screenshot(page, `carrier-endpoint-${w}-${lang}`);
        await page.getByTestId('carrier-base-url-cancel-cdek').click();
      }
    });
  });
}
