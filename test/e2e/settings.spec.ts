// Settings → Listener and General against a real core: the listener URL and a curl example that never
// carries a real key, the sandbox banner and the guarded switch to live mode, the language switch, theme,
// box presets and default carriers stored in settings.
import { CARRIER_CODES } from '../../core/carriers/types';
import { expect, openApp, screenshot, test } from './fixtures';

test('listener: the URL for local tools and a copyable curl example with $RATEDESK_API_KEY', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/listener');
  await expect(page.getByTestId('tab-listener')).toHaveAttribute('aria-selected', 'true');
  const url = `http://127.0.0.1:${desk.port}`;
  await expect(page.getByTestId('listener-url')).toHaveText(url);
  await expect(page.getByTestId('listener-state')).toHaveAttribute('data-running', 'true');
  await expect(page.getByTestId('listener-enabled')).toHaveAttribute('aria-checked', 'true');

  const curl = page.getByTestId('listener-curl');
  await expect(curl).toContainText(`${url}/v1/balance`);
  await expect(curl).toContainText('$RATEDESK_API_KEY');
  await expect(page.getByTestId('listener-curl-rates')).toContainText(`${url}/v1/rates`);
  expect(await page.content()).not.toContain(desk.apiKey);
  await page.getByTestId('listener-curl-copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`curl -sS -H "Authorization: Bearer $RATEDESK_API_KEY" ${url}/v1/balance`);

  // The copied command is right: with the variable filled in, the listener answers.
  const res = await fetch(`${url}/v1/balance`, { headers: { Authorization: `Bearer ${desk.apiKey}` } });
  expect(res.status).toBe(200);

  // A port that is not a port is refused in the form.
  await page.getByTestId('listener-port').fill('70000');
  await page.getByTestId('listener-apply').click();
  await expect(page.getByTestId('listener-tab')).toContainText('Порт — целое число от 0 до 65535');
  await screenshot(page, 'settings-listener-light');

  // The switch is stored as listener.enabled. (The fixture's service pins its listener to a free port the
  // way `serve --port` does, so whether it really stops is covered by the desk handler tests, not here.)
  await page.getByTestId('listener-port').fill(String(desk.port));
  await page.getByTestId('listener-enabled').click();
  await expect(page.getByTestId('listener-enabled')).toHaveAttribute('aria-checked', 'false');
  expect(desk.service.settings.get('listener.enabled')).toBe('off');
  await page.getByTestId('listener-enabled').click();
  await expect(page.getByTestId('listener-enabled')).toHaveAttribute('aria-checked', 'true');
  expect(desk.service.settings.get('listener.enabled')).toBe('on');
  await expect(page.getByTestId('listener-url')).toBeVisible();
});

test('general: sandbox banner; going live asks first and warns about real prices and CDEK credentials', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/general');
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();
  await expect(page.getByTestId('sandbox-banner')).toContainText('цены и сроки не настоящие');
  await expect(page.getByTestId('sandbox-badge')).toBeVisible();
  await expect(page.getByTestId('data-dir')).toHaveText(desk.dataDir);
  await screenshot(page, 'settings-general-light');

  const sw = page.getByTestId('sandbox-switch');
  await expect(sw).toHaveAttribute('aria-checked', 'true');
  await sw.click();
  const confirm = page.getByTestId('sandbox-confirm');
  await expect(confirm).toContainText('цены и сроки будут настоящими');
  await expect(confirm).toContainText('СДЭК работает только с учётными данными');
  await expect(page.getByTestId('sandbox-missing-credentials')).toContainText('СДЭК');
  await screenshot(page, 'settings-go-live-light');
  // Cancel keeps the sandbox.
  await confirm.getByRole('button', { name: 'Остаться в песочнице' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(sw).toHaveAttribute('aria-checked', 'true');
  expect(desk.service.sandbox()).toBe(true);

  await sw.click();
  await page.getByTestId('sandbox-confirm-live').click();
  await expect(page.getByTestId('live-banner')).toBeVisible();
  await expect(page.getByTestId('sandbox-badge')).toHaveCount(0);
  expect(desk.service.sandbox()).toBe(false);

  // Back to the sandbox: no question asked.
  await sw.click();
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();
  await expect(page.getByTestId('sandbox-badge')).toBeVisible();
  expect(desk.service.sandbox()).toBe(true);
});

test('general: language switch from Settings, theme, default carriers, box presets', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/general');
  const setting = async (name: string): Promise<string | undefined> =>
    (await desk.call('settings:get')).find((s) => s.name === name)?.value;

  // Language: English from the Settings screen, stored in ui.language.
  await page.getByTestId('settings-lang').getByRole('radio', { name: 'English' }).check();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('nav-quote')).toHaveText('Quote');
  await expect(page.getByTestId('tab-general')).toHaveText('General');
  await expect.poll(() => setting('ui.language')).toBe('en');
  await screenshot(page, 'settings-general-en-light');
  await page.getByTestId('settings-lang').getByRole('radio', { name: 'Русский' }).check();
  await expect(page.getByRole('heading', { name: 'Настройки', level: 1 })).toBeVisible();
  await expect.poll(() => setting('ui.language')).toBe('ru');

  // Theme: dark, pinned on <html>, stored in ui.theme.
  await page.getByTestId('settings-theme').getByRole('radio', { name: 'тёмная' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => setting('ui.theme')).toBe('dark');
  await screenshot(page, 'settings-general-dark');
  await page.getByTestId('settings-theme').getByRole('radio', { name: 'как в системе' }).check();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);

  // Default carriers: untick CDEK → every other carrier is preselected; tick it again → all (empty).
  await page.getByTestId('default-carrier-cdek').uncheck();
  await expect
    .poll(() => setting('ui.default_carriers'))
    .toBe(CARRIER_CODES.filter((c) => c !== 'cdek').join(','));
  await page.getByTestId('default-carrier-cdek').check();
  await expect.poll(() => setting('ui.default_carriers')).toBe('');

  // Box presets: a new row with a bad side is refused in its cell; fixed, it is saved.
  await expect(page.getByTestId('preset-row')).toHaveCount(4);
  await page.getByTestId('preset-add').click();
  const last = page.getByTestId('preset-row').last();
  await expect(last.getByTestId('preset-name')).toBeFocused();
  await last.getByTestId('preset-name').fill('Пакет A4');
  await last.getByTestId('preset-length').fill('32');
  await last.getByTestId('preset-width').fill('23');
  await last.getByTestId('preset-height').fill('0');
  await page.getByTestId('preset-save').click();
  await expect(last).toContainText('От 0,1 до 1000');
  await last.getByTestId('preset-height').fill('2,5');
  await page.getByTestId('preset-save').click();
  await expect(page.getByTestId('toasts')).toContainText('Коробки сохранены');
  const presets = JSON.parse((await setting('ui.box_presets')) ?? '[]') as { name: string }[];
  expect(presets.at(-1)).toEqual({ name: 'Пакет A4', length_cm: 32, width_cm: 23, height_cm: 2.5 });
});

test('listener: a port below 1024 is refused in the form, as its hint says', async ({ page, desk }) => {
  const before = await desk.call('listener:status');
  await openApp(page, 'settings/listener');
  await expect(page.getByTestId('listener-tab')).toContainText('1024–65535; 0 — любой свободный.');
  await page.getByTestId('listener-port').fill('80');
  await page.getByTestId('listener-apply').click();
  await expect(page.getByTestId('listener-tab')).toContainText('кроме 1–1023');
  await expect(page.getByTestId('listener-port')).toHaveAttribute('aria-invalid', 'true');
  expect((await desk.call('listener:status')).port).toBe(before.port);
});
