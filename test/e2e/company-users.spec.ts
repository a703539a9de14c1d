// Settings → «Пользователи» (#20) as an administrator on a real company server: a new clerk gets a code shown
// once, disabling and enabling, and revoking a device (this very desk: the server refuses it at once).
import { expect, openApp, screenshot, test } from './fixtures';

test.use({
  deskOptions: {
    company: { join: { user: 'Борис', role: 'admin', device: 'Склад Подольск, администратор' } },
  },
});

test('add a clerk, the code once, disable and enable, revoke a device', async ({ page, desk }) => {
  await openApp(page, 'settings/users');
  await expect(page.getByTestId('users-table')).toContainText('Борис');
  await expect(page.getByTestId('devices-table')).toContainText('Склад Подольск, администратор');

  await page.getByTestId('user-add-name').fill('не годится!');
  await page.getByTestId('user-add-submit').click();
  await expect(page.getByTestId('users-tab')).toContainText('без пробелов');

  await page.getByTestId('user-add-name').fill('Вера');
  await page.getByTestId('user-add-role').selectOption('clerk');
  await page.getByTestId('user-add-submit').click();
  const dialog = page.getByTestId('user-code-dialog');
  await expect(dialog).toContainText('Код показан один раз');
  const code = (await page.getByTestId('user-code').textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await screenshot(page, 'company-users-code-1280-ru');
  await page.getByTestId('user-code-close').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('users-table')).toContainText('Вера');
  // Shown once: nowhere on the page any more.
  expect(await page.content()).not.toContain(code);

  await page.getByTestId('user-toggle-Вера').click();
  await expect(page.getByTestId('users-table').locator('tr', { hasText: 'Вера' })).toContainText('отключён');
  await page.getByTestId('user-toggle-Вера').click();
  await expect(page.getByTestId('users-table').locator('tr', { hasText: 'Вера' })).toContainText('активен');
  await screenshot(page, 'company-users-1280-ru');

  // Revoking this very desk: confirmed, then the server refuses it on its next call and the strip says so.
  const own = (await desk.company!.call('devices:list')).find(
    (d) => d.name === 'Склад Подольск, администратор',
  )!;
  await page.getByTestId(`device-revoke-${own.id}`).click();
  await expect(page.getByTestId('device-revoke-dialog')).toContainText('новый код');
  await page.getByTestId('device-revoke-confirm').click();
  await expect(page.getByTestId('company-banner')).toContainText('больше не принимает', { timeout: 15_000 });
});
