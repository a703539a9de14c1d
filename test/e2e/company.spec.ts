// Settings → «Сервер компании» (#20) on a local desk: the join form checks what it can before asking the
// server (an https address, a code, a desk name, a compared fingerprint or a CA), and the tab looks right at
// both window sizes in both languages.
import { readFileSync } from 'node:fs';
import { makeCertificate } from '../helpers/tls';
import { expect, openApp, screenshot, test } from './fixtures';

test('the join form says what is missing before it asks the server', async ({ page }) => {
  await openApp(page, 'settings/company');
  await expect(page.getByTestId('tab-company')).toHaveAttribute('aria-selected', 'true');
  const tab = page.getByTestId('company-tab');
  await expect(tab).toHaveAttribute('data-mode', 'local');
  // Local mode: no company chrome.
  await expect(page.getByTestId('company-banner')).toHaveCount(0);
  await expect(page.getByTestId('company-chip')).toHaveCount(0);

  // Not https: said under the field, nothing sent.
  await page.getByTestId('company-url-input').fill('http://rates.example.ru');
  await page.getByTestId('company-url-input').press('Enter');
  await expect(tab).toContainText('Адрес должен начинаться с https://');

  // A code without a checked server: first check and compare.
  await page.getByTestId('company-url-input').fill('https://rates.example.ru');
  await page.getByTestId('company-code').fill('abcd-efgh-jkmn');
  await expect(page.getByTestId('company-code')).toHaveValue('ABCD-EFGH-JKMN');
  await expect(page.getByTestId('company-device-name')).toHaveValue('Касса 1');
  await page.getByTestId('company-code').press('Enter');
  await expect(page.getByTestId('company-error')).toContainText('Сначала проверьте сервер');

  // The CA instead of a fingerprint: a PEM is required.
  await page.getByTestId('company-ca-toggle').click();
  await page.getByTestId('company-ca-pem').fill('not a certificate');
  await page.getByTestId('company-join').click();
  await expect(page.getByTestId('company-ca')).toContainText('Это не сертификат PEM');

  // An empty code and name are said at their fields.
  await page.getByTestId('company-code').fill('');
  await page.getByTestId('company-device-name').fill(' ');
  await page.getByTestId('company-join').click();
  await expect(tab).toContainText('Введите код от администратора');
  await expect(tab).toContainText('Назовите рабочее место');
});

test('every settings tab is there on a local desk, as before', async ({ page }) => {
  await openApp(page, 'settings');
  for (const tab of ['keys', 'listener', 'general', 'warehouses', 'company', 'audit']) {
    await expect(page.getByTestId(`tab-${tab}`)).toBeVisible();
  }
  // Keyboard: → walks the tabs into the new ones.
  await openApp(page, 'settings/warehouses');
  await page.getByTestId('tab-warehouses').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-company')).toBeFocused();
  await expect(page.getByTestId('company-tab')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-audit')).toBeFocused();
  await expect(page.getByTestId('audit-tab')).toBeVisible();
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test.describe(`company tab, local, ${size.width}×${size.height}, ${lang}`, () => {
      test.use({ viewport: size, deskOptions: { settings: { 'ui.language': lang } } });
      test('screenshot', async ({ page }) => {
        await openApp(page, 'settings/company');
        await expect(page.getByTestId('company-tab')).toBeVisible();
        await screenshot(page, `company-local-${size.width}-${lang}`);
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// With a real company server (the harness's company mode: PostgreSQL, TLS, the desk gateway)
// ---------------------------------------------------------------------------------------------------

test.describe('signing in', () => {
  test.use({ deskOptions: { company: { join: false } } });

  test('probe shows the certificate to compare, the code joins, and a clerk sees no admin tabs', async ({
    page,
    desk,
  }) => {
    const company = desk.company!;
    const code = await company.userWithCode('Анна', 'clerk');
    await openApp(page, 'settings/company');

    await page.getByTestId('company-url-input').fill(company.url);
    await page.getByTestId('company-probe').click();
    const cert = page.getByTestId('company-cert');
    await expect(cert).toBeVisible();
    // The fingerprint as the administrator reads it: four lines of eight bytes, the whole in the attribute.
    const fp = page.getByTestId('company-cert-fingerprint');
    await expect(fp).toHaveAttribute('data-fingerprint', company.fingerprint);
    await expect(fp.locator('.fingerprint-line')).toHaveCount(4);
    await expect(fp).toContainText(company.fingerprint.slice(0, 23));
    await expect(page.getByTestId('company-cert-subject')).toContainText('localhost');
    await expect(cert).toContainText('Сравните отпечаток');
    await screenshot(page, 'company-probe-1280-ru');

    // Not confirmed yet: said, nothing sent.
    await page.getByTestId('company-code').fill(code);
    await page.getByTestId('company-join').click();
    await expect(page.getByTestId('company-error')).toContainText('Подтвердите, что отпечаток совпадает');

    await page.getByTestId('company-cert-match').check();
    await page.getByTestId('company-device-name').fill('Склад Подольск, касса 2');
    await page.getByTestId('company-join').click();

    // Joined: who, where, the state; the top bar names the clerk.
    const tab = page.getByTestId('company-tab');
    await expect(tab).toHaveAttribute('data-mode', 'company');
    await expect(page.getByTestId('company-user')).toHaveText('Анна');
    await expect(page.getByTestId('company-role')).toHaveText('кассир');
    await expect(page.getByTestId('company-device')).toHaveText('Склад Подольск, касса 2');
    await expect(page.getByTestId('company-url')).toHaveText(company.url);
    await expect(page.getByTestId('company-fingerprint')).toHaveAttribute(
      'data-fingerprint',
      company.fingerprint,
    );
    await expect(page.getByTestId('company-connection')).toContainText('на связи');
    await expect(page.getByTestId('company-chip')).toContainText('Анна');
    await screenshot(page, 'company-joined-clerk-1280-ru');

    // A clerk: no keys, listener or audit tabs; no sandbox switch; Balance and Carriers read-only.
    for (const hidden of ['keys', 'listener', 'audit'])
      await expect(page.getByTestId(`tab-${hidden}`)).toHaveCount(0);
    await expect(page.getByTestId('tab-general')).toBeVisible();
    await openApp(page, 'settings/keys');
    // An admin tab by its address falls back to what the clerk may see.
    await expect(page.getByTestId('panel-general')).toBeVisible();
    await openApp(page, 'balance');
    await expect(page.getByTestId('account-default')).toBeVisible();
    await expect(page.getByTestId('account-create')).toHaveCount(0);
    await expect(page.getByTestId('topup-submit-default')).toHaveCount(0);
    await expect(page.getByTestId('limits-edit-default')).toHaveCount(0);
    await screenshot(page, 'company-clerk-balance-1280-ru');
    await openApp(page, 'carriers');
    await expect(page.getByTestId('carrier-card-cdek')).toBeVisible();
    await expect(page.getByTestId('carrier-enabled-cdek')).toBeDisabled();
    await expect(page.getByTestId('carrier-check-cdek')).toHaveCount(0);
    await expect(page.getByTestId('ratecard-import')).toHaveCount(0);
    await expect(page.getByTestId('carriers-sandbox-note')).toHaveCount(0);
    await screenshot(page, 'company-clerk-carriers-1280-ru');

    // The server refuses the same admin call whatever the UI shows (not just hidden).
    const refused = await page.evaluate(() =>
      window.ratedesk!.keys.create({ account: 'default', name: 'от кассира' }),
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // The code was single use: leaving and joining again with it is refused in plain words.
    await openApp(page, 'settings/company');
    await page.getByTestId('company-leave').click();
    await expect(page.getByTestId('company-leave-dialog')).toContainText('не менялась');
    await page.getByTestId('company-leave-confirm').click();
    await expect(page.getByTestId('company-tab')).toHaveAttribute('data-mode', 'local');
    await expect(page.getByTestId('company-chip')).toHaveCount(0);
    await expect(page.getByTestId('tab-keys')).toBeVisible();
    await page.getByTestId('company-url-input').fill(company.url);
    await page.getByTestId('company-probe').click();
    await page.getByTestId('company-cert-match').check();
    await page.getByTestId('company-code').fill(code);
    await page.getByTestId('company-join').click();
    await expect(page.getByTestId('company-error')).toContainText('Этот код уже использован');
  });

  test('an unknown code, a wrong CA and an unreachable server are each said plainly', async ({
    page,
    desk,
  }) => {
    const company = desk.company!;
    await openApp(page, 'settings/company');
    await page.getByTestId('company-url-input').fill(company.url);
    await page.getByTestId('company-probe').click();
    await page.getByTestId('company-cert-match').check();
    await page.getByTestId('company-code').fill('ZZZZ-ZZZZ-ZZZZ');
    await page.getByTestId('company-join').click();
    await expect(page.getByTestId('company-error')).toContainText('Такого кода нет');

    // A CA that did not issue the server's certificate: refused before the code is sent.
    const other = makeCertificate(['other.example']);
    try {
      await page.getByTestId('company-ca-toggle').click();
      await page.getByTestId('company-ca-pem').fill(readFileSync(other.certFile, 'utf8'));
      await page.getByTestId('company-code').fill(await company.userWithCode('Вера', 'clerk'));
      await page.getByTestId('company-join').click();
      await expect(page.getByTestId('company-error')).toContainText('Сертификат сервера не совпадает');
    } finally {
      other.remove();
    }

    // The server away: the probe says so.
    await page.getByTestId('company-ca-toggle').click();
    await company.stop();
    await page.getByTestId('company-probe').click();
    await expect(page.getByTestId('company-error')).toContainText('Сервер не отвечает');
  });
});
