// Company mode on every screen (#20), with a real company server: when it stops, a strip says so on every
// screen and the actions that need it are disabled with the reason (nothing is answered from local data);
// when it returns the desk reconnects by itself. A revoked device is told so and pointed to Settings. And
// the joined screens as an administrator sees them, at both window sizes in both languages.
import { expect, openApp, screenshot, test } from './fixtures';

test.describe('a clerk when the server stops and returns', () => {
  test.use({ deskOptions: { company: { join: { user: 'Анна', role: 'clerk' } } } });

  test('the strip on every screen, quoting disabled with the reason, then recovery by itself', async ({
    page,
    desk,
  }) => {
    await openApp(page, 'quote');
    await expect(page.getByTestId('company-chip')).toContainText('Анна');
    await expect(page.getByTestId('company-banner')).toHaveCount(0);
    const submit = page.getByTestId('submit');
    await expect(submit).toBeEnabled();

    await desk.company!.stop();
    const banner = page.getByTestId('company-banner');
    await expect(banner).toContainText('Нет связи с сервером компании', { timeout: 15_000 });
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAttribute('title', /связи с ним нет/);
    await screenshot(page, 'company-banner-1280-ru');
    // Every screen: History shows the strip too, and says it could not load (no local rows instead).
    await openApp(page, 'history');
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('error-state')).toBeVisible();
    await expect(page.getByTestId('export-csv')).toBeDisabled();

    await desk.company!.start();
    await expect(banner).toHaveCount(0, { timeout: 20_000 });
    // The screen loads afresh once the server answers.
    await expect(page.getByTestId('error-state')).toHaveCount(0);
    await openApp(page, 'quote');
    await expect(submit).toBeEnabled();
  });

  test('a revoked device is told so and pointed to Settings', async ({ page, desk }) => {
    await openApp(page, 'history');
    const devices = await desk.company!.call('devices:list');
    for (const d of devices) await desk.company!.call('devices:revoke', { id: d.id });
    // The next call meets the refusal.
    await openApp(page, 'balance');
    const banner = page.getByTestId('company-banner');
    await expect(banner).toContainText('больше не принимает это рабочее место', { timeout: 15_000 });
    await screenshot(page, 'company-refused-1280-ru');
    await banner.getByRole('link').click();
    await expect(page.getByTestId('company-refused')).toBeVisible();
    await expect(page.getByTestId('company-connection')).toContainText('доступ закрыт');
  });
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test.describe(`company mode, ${size.width}×${size.height}, ${lang}`, () => {
      test.use({
        viewport: size,
        deskOptions: {
          settings: { 'ui.language': lang },
          company: { join: { user: 'Борис', role: 'admin', device: 'Склад Подольск, касса 2' } },
        },
      });
      test('screenshots: the joined tab, the audit log, the strip', async ({ page, desk }) => {
        await openApp(page, 'settings/company');
        await expect(page.getByTestId('company-tab')).toHaveAttribute('data-mode', 'company');
        await expect(page.getByTestId('company-role')).toHaveText(
          lang === 'ru' ? 'администратор' : 'administrator',
        );
        await screenshot(page, `company-joined-${size.width}-${lang}`);

        // The admin's changes from this desk are in the log under his name.
        await openApp(page, 'balance');
        await page.getByTestId('topup-amount-default').fill('250');
        await page.getByTestId('topup-submit-default').click();
        await expect(page.getByTestId('balance-default')).toHaveAttribute('data-balance', '350');
        await openApp(page, 'settings/audit');
        const rows = page.getByTestId('audit-table').locator('tbody tr');
        await expect(rows.first()).toContainText('Борис');
        await expect(rows.first()).toContainText(lang === 'ru' ? 'Пополнение' : 'Top-up');
        await screenshot(page, `audit-company-${size.width}-${lang}`);

        await openApp(page, 'quote');
        await desk.company!.stop();
        await expect(page.getByTestId('company-banner')).toBeVisible({ timeout: 15_000 });
        await screenshot(page, `company-banner-${size.width}-${lang}`);
        await desk.company!.start();
      });
    });
  }
}
