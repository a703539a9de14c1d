// The carriers screen against a real core: a card per carrier, live status from 'carriers:status' events,
// enable/disable reaching /v1, CDEK credentials saved and shown only masked, the endpoint and timeout.
import type { Page } from '@playwright/test';
import { CARRIER_CODES } from '../../core/carriers/types';
import { SHIPMENT } from '../helpers/service';
import { expect, openApp, screenshot, test } from './fixtures';

const card = (page: Page, code: string) => page.getByTestId(`carrier-card-${code}`);
const status = (page: Page, code: string) => page.getByTestId(`carrier-card-status-${code}`);

test('a card per carrier; status badges follow carrier events live; enable/disable reaches /v1', async ({
  page,
  desk,
}) => {
  await openApp(page, 'carriers');
  await expect(card(page, 'cdek')).toBeVisible();
  await expect(card(page, 'russian-post')).toBeVisible();
  await expect(card(page, 'cdek').getByRole('heading', { name: 'СДЭК' })).toBeVisible();
  await expect(card(page, 'russian-post').getByRole('heading', { name: 'Почта России' })).toBeVisible();
  // A fresh data folder: nobody has answered yet.
  await expect(status(page, 'cdek')).toHaveText('неизвестно');
  await expect(page.getByTestId('carriers-sandbox-note')).toBeVisible();
  // Credentials only for the carrier that has an account; Russian Post's public calculator needs none.
  await expect(page.getByTestId('carrier-credentials-cdek')).toBeVisible();
  await expect(page.getByTestId('carrier-credentials-russian-post')).toHaveCount(0);
  // In the sandbox a simulator answers: no card warns about missing credentials (#17 item 9).
  await expect(page.getByTestId('carrier-needs-credentials-cdek')).toHaveCount(0);

  // A /v1 quote from a local tool: both carriers answer, the badges change without a reload.
  const ok = await desk.http.postRates(SHIPMENT);
  expect(ok.status).toBe(200);
  await expect(status(page, 'cdek')).toHaveText('доступен');
  await expect(status(page, 'russian-post')).toHaveText('доступен');
  await expect(page.getByTestId('carrier-latency-cdek')).toHaveText(/\d[,.]\d\s?с|<0,1\s?с/);

  // Switch CDEK off: the card says so, the core stores it, /v1 reports it as switched off.
  const sw = page.getByTestId('carrier-enabled-cdek');
  await expect(sw).toHaveAttribute('aria-checked', 'true');
  await sw.click();
  await expect(sw).toHaveAttribute('aria-checked', 'false');
  await expect(card(page, 'cdek')).toHaveAttribute('data-enabled', 'false');
  await expect(card(page, 'cdek')).toContainText('ВЫКЛЮЧЕН');
  const listed = await desk.call('carriers:list');
  expect(listed.find((c) => c.code === 'cdek')?.enabled).toBe(false);
  // Every enabled carrier: no CDEK rates; CDEK named explicitly: reported as switched off.
  const all = await desk.http.postRates(SHIPMENT);
  expect(all.status).toBe(200);
  expect(all.json.rates.some((x: { carrier: string }) => x.carrier === 'cdek')).toBe(false);
  const named = await desk.http.postRates({ ...SHIPMENT, carriers: ['cdek', 'russian-post'] });
  expect(named.status).toBe(200);
  expect(named.json.unavailable).toContainEqual({ carrier: 'cdek', reason: 'disabled in settings' });
  await screenshot(page, 'carriers-cdek-off-light');

  // And on again, with the keyboard.
  await sw.focus();
  await page.keyboard.press('Space');
  await expect(sw).toHaveAttribute('aria-checked', 'true');
  await expect(card(page, 'cdek')).toHaveAttribute('data-enabled', 'true');
  expect((await desk.call('carriers:list')).find((c) => c.code === 'cdek')?.enabled).toBe(true);
});

test.describe('breaker with a short cool-down', () => {
  test.use({ deskOptions: { settings: { 'rating.breaker_cooldown_ms': '1000' } } });

  test('a failing carrier turns "недоступен" with its last error in plain words', async ({ page, desk }) => {
    await openApp(page, 'carriers');
    await expect(status(page, 'cdek')).toHaveText('неизвестно');
    // Sandbox trigger 999912: CDEK answers HTTP 500. Three failures in a row make it unavailable.
    for (let i = 0; i < 3; i++) {
      await desk.http.postRates({ ...SHIPMENT, to: { city: 'Казань', postal_code: '999912' } });
    }
    await expect(status(page, 'cdek')).toHaveText('недоступен');
    const lastError = page.getByTestId('carrier-last-error-cdek');
    await expect(lastError).toContainText('Сбой на стороне перевозчика');
    await expect(lastError).not.toContainText('[object');
    await expect(status(page, 'russian-post')).toHaveText('доступен');
    await expect(page.getByTestId('carrier-latency-russian-post')).toHaveText(/\d/);
    await screenshot(page, 'carriers-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'carriers-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Its circuit breaker is open (docs/carriers.md): after the cool-down the next good answer brings it back.
    await page.waitForTimeout(1_100);
    await desk.http.postRates(SHIPMENT);
    await expect(status(page, 'cdek')).toHaveText('доступен');
  });
});

test('CDEK credentials: saved, shown masked only, secret replaced; inline validation', async ({
  page,
  desk,
}) => {
  await openApp(page, 'carriers');
  const secret = 'S3cr3tPassw0rdXyZ9';
  const clientId = page.getByTestId('carrier-client-id-cdek');
  const secretInput = page.getByTestId('carrier-secret-cdek');
  const save = page.getByTestId('carrier-credentials-save-cdek');

  // A secret without a client id is refused in the form.
  await secretInput.fill(secret);
  await save.click();
  await expect(page.getByTestId('carrier-credentials-cdek')).toContainText('Укажите идентификатор клиента');
  expect((await desk.call('carriers:list')).find((c) => c.code === 'cdek')?.credentials?.configured).toBe(
    false,
  );

  await clientId.fill('shop-client-42');
  await expect(secretInput).toHaveAttribute('type', 'password');
  await save.click();
  const masked = page.getByTestId('carrier-secret-masked-cdek');
  await expect(masked).toHaveText('••••XyZ9');
  await expect(page.getByTestId('carrier-needs-credentials-cdek')).toHaveCount(0);
  // Stored in full in the core, never shown back in full: not in the DOM, not in any input's value.
  expect(desk.service.settings.get('carriers.cdek.client_secret')).toBe(secret);
  expect(desk.service.settings.get('carriers.cdek.client_id')).toBe('shop-client-42');
  expect(await page.content()).not.toContain(secret);
  const values = await page
    .locator('input')
    .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(values).not.toContain(secret);
  await screenshot(page, 'carriers-credentials-light');

  // After a reload the form shows the same: client id, the masked secret.
  await page.reload();
  await expect(page.getByTestId('carrier-secret-masked-cdek')).toHaveText('••••XyZ9');
  await expect(page.getByTestId('carrier-client-id-cdek')).toHaveValue('shop-client-42');

  // Replace the secret.
  await page.getByTestId('carrier-secret-replace-cdek').click();
  await page.getByTestId('carrier-secret-cdek').fill('AnotherSecret7777');
  await page.getByTestId('carrier-credentials-save-cdek').click();
  await expect(page.getByTestId('carrier-secret-masked-cdek')).toHaveText('••••7777');
  expect(desk.service.settings.get('carriers.cdek.client_secret')).toBe('AnotherSecret7777');
  // Where the carrier is reached (one control, an address of one's own included): carrier-cards-admin.spec.ts.
});

test('where a carrier is asked and its own timeout (#10): chosen on the card, stored by the core', async ({
  page,
  desk,
}) => {
  await openApp(page, 'carriers');
  const endpoint = page.getByTestId('carrier-endpoint-cdek');
  await expect(endpoint).toBeVisible();
  await expect(page.getByTestId('carrier-endpoint-cdek-production')).toBeChecked();
  // Russian Post has no test host of its own: no such choice on its card.
  await expect(page.getByTestId('carrier-endpoint-russian-post-test')).toHaveCount(0);

  await page.getByTestId('carrier-endpoint-cdek-test').check();
  await expect(page.getByTestId('carrier-endpoint-cdek-test')).toBeChecked();
  await expect.poll(() => desk.service.store.settings.get('carriers.cdek.endpoint')).toBe('test');
  // One control: the host is the choice's own line, no second address field (#17 item 9).
  await expect(page.getByTestId('carrier-base-url-cdek')).toHaveCount(0);

  const timeout = page.getByTestId('carrier-timeout-cdek');
  await timeout.fill('70000');
  await page.getByTestId('carrier-timeout-save-cdek').click();
  await expect(endpoint).toContainText('Не больше 60 000 мс.');
  await timeout.fill('2500');
  await page.getByTestId('carrier-timeout-save-cdek').click();
  await expect.poll(() => desk.service.store.settings.get('carriers.cdek.timeout_ms')).toBe('2500');
  await expect(page.getByText('СДЭК: тайм-аут сохранён')).toBeVisible();

  await page.getByTestId('carrier-endpoint-cdek-production').check();
  // Back to the default: the settings table keeps only deviations, so the row is gone.
  await expect.poll(() => desk.service.store.settings.get('carriers.cdek.endpoint')).toBeUndefined();
  await expect(endpoint).toContainText('https://api.cdek.ru/v2');
  await screenshot(page, 'carriers-endpoint-light');
});

test('the index at the top lists every carrier with its status and jumps to its card', async ({ page }) => {
  await openApp(page, 'carriers');
  const index = page.getByTestId('carrier-index');
  await expect(index.getByRole('button')).toHaveCount(CARRIER_CODES.length);
  await expect(page.getByTestId('carrier-index-dellin')).toContainText('Деловые Линии');
  await expect(page.getByTestId('carrier-index-dellin')).toContainText('неизвестно');
  await page.getByTestId('carrier-index-5post').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('carrier-card-5post')).toBeFocused();
  await expect(page.getByTestId('carrier-card-5post')).toBeInViewport();
  // Only the screen scrolls: the app's navigation stays in the window.
  await expect(page.getByTestId('nav-quote')).toBeInViewport();
});

test.describe('the live check on a carrier card (#15)', () => {
  test('sandbox: «Проверить» passes every step against the simulator, each timed', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openApp(page, 'carriers');
    const section = page.getByTestId('carrier-check-section-cdek');
    await expect(section).toContainText('В песочнице проверка идёт против встроенного симулятора');
    await page.getByTestId('carrier-check-cdek').click();
    const report = page.getByTestId('carrier-check-report-cdek');
    await expect(report).toHaveAttribute('data-ok', 'true');
    await expect(report).toContainText(/Проверка пройдена: 4 шага за <?\d+,\d\s?с\./);
    await expect(report).toContainText('Где: встроенный симулятор');
    const steps = report.locator('li');
    await expect(steps).toHaveCount(4);
    await expect(report.locator('li[data-status="passed"]')).toHaveCount(4);
    await expect(steps.nth(0)).toContainText('Вход');
    await expect(steps.nth(2)).toContainText(/Размер ответа.*из 1,00\s?МБ допустимых/);
    await expect(steps.nth(3)).toContainText(/Маршрут.*тариф.*от \d/);
    // What the steps saw reads in Russian too.
    await expect(steps.nth(0)).toContainText(/токен выдан на \d+ с/);
    await expect(page.getByTestId('carrier-check-cdek')).toHaveText('Проверить ещё раз');
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'carriers-check-passed-1280');
  });

  test('live, a dead host: the first step fails, says what the carrier answered and what to look at', async ({
    page,
    desk,
  }) => {
    await page.setViewportSize({ width: 1024, height: 640 });
    await desk.call('settings:set', { name: 'sandbox', value: 'off' });
    await desk.call('carriers:update', {
      code: 'cdek',
      base_url: 'http://127.0.0.1:9/v2',
      client_id: 'account',
      client_secret: 'secret',
    });
    await openApp(page, 'carriers');
    await page.getByTestId('carrier-check-cdek').click();
    const report = page.getByTestId('carrier-check-report-cdek');
    await expect(report).toHaveAttribute('data-ok', 'false');
    await expect(report).toContainText(/Ошибка на шаге «Вход» через/);
    await expect(report).toContainText('Где: http://127.0.0.1:9/v2');
    const first = report.locator('li').nth(0);
    await expect(first).toHaveAttribute('data-status', 'failed');
    await expect(first).toContainText(/Ответ: .*connection refused/);
    await expect(first).toContainText('Что проверить:');
    await expect(report.locator('li[data-status="skipped"]')).toHaveCount(3);
    await expect(report.locator('li').nth(1)).toContainText('не выполнялся');
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'carriers-check-failed-1024');
  });

  test('DPD’s limits are marked unconfirmed, with the reason; CDEK’s are not', async ({ page }) => {
    await openApp(page, 'carriers');
    const badge = page.getByTestId('carrier-limits-unverified-dpd');
    await expect(badge).toHaveText('ЛИМИТЫ НЕ ПОДТВЕРЖДЕНЫ');
    await expect(badge).toHaveAttribute('title', /DPD Россия своих не публикует/);
    await expect(page.getByTestId('carrier-limits-unverified-cdek')).toHaveCount(0);
  });
});
