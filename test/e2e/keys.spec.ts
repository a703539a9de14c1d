// Settings → API keys against a real core and its real /v1 listener (called with Node's fetch, as a local
// tool would): create shows the secret once and the key works; a foreign key and an export document are
// imported and work; revoke asks first, then the same key gets 401 api_key_revoked; export has no secrets.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';

async function balanceWith(
  port: number,
  key: string,
): Promise<{ status: number; body: { balance?: number; error?: { code: string } } }> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/balance`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as { balance?: number; error?: { code: string } } };
}

const row = (page: Page, name: string) => page.locator(`[data-testid="key-row"][data-key-name="${name}"]`);

test('create: the secret is shown once, copied, works on /v1; revoke asks, then /v1 answers 401 api_key_revoked', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/keys');
  await expect(page.getByTestId('tab-keys')).toHaveAttribute('aria-selected', 'true');
  // The fixture's own key is listed, masked.
  await expect(page.getByTestId('key-row')).toHaveCount(1);

  await page.getByTestId('key-create').click();
  const dialog = page.getByTestId('key-create-dialog');
  // A name is required, checked in the form.
  await page.getByTestId('key-create-submit').click();
  await expect(dialog).toContainText('Введите название');
  await page.getByTestId('key-create-name').fill('Склад, сервер 1');
  await expect(page.getByTestId('key-create-account')).toHaveValue('default');
  await page.getByTestId('key-create-name').press('Enter');

  // The secret, once, with the warning; Enter on the focused copy button copies it.
  const secretField = page.getByTestId('key-secret');
  await expect(secretField).toHaveValue(/^rdk_[0-9A-Za-z]{38}$/);
  const secret = await secretField.inputValue();
  await expect(page.getByTestId('key-secret-warning')).toContainText('больше он показан не будет');
  await expect(page.getByTestId('key-secret-copy')).toBeFocused();
  await screenshot(page, 'settings-key-created-light');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toasts')).toContainText('Ключ скопирован');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByTestId('key-create-close').click();
  await expect(dialog).toHaveCount(0);

  // Gone from the page for good: the table shows only the masked prefix and the last four.
  expect(await page.content()).not.toContain(secret);
  const created = row(page, 'Склад, сервер 1');
  await expect(created).toContainText(secret.slice(0, 8) + '…');
  await expect(created).toContainText(secret.slice(-4));
  await expect(created).toContainText('активен');
  await expect(created).toContainText('ещё не использовался');

  // A local tool uses it.
  const ok = await balanceWith(desk.port, secret);
  expect(ok.status).toBe(200);
  expect(ok.body.balance).toBe(100);

  // Revoke: a confirmation first (Cancel is focused, Esc closes and keeps the key).
  await created.getByTestId('key-revoke').click();
  const confirm = page.getByTestId('revoke-dialog');
  await expect(confirm).toContainText('Действует сразу и навсегда');
  await expect(confirm.getByRole('button', { name: 'Отмена' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  expect((await balanceWith(desk.port, secret)).status).toBe(200);

  await created.getByTestId('key-revoke').click();
  await screenshot(page, 'settings-key-revoke-light');
  await page.getByTestId('revoke-confirm').click();
  await expect(confirm).toHaveCount(0);
  await expect(created).toHaveAttribute('data-state', 'revoked');
  await expect(created).toContainText('отозван');
  await expect(created.getByTestId('key-revoke')).toHaveCount(0);
  const revoked = await balanceWith(desk.port, secret);
  expect(revoked.status).toBe(401);
  expect(revoked.body.error?.code).toBe('api_key_revoked');
  // The fixture's other key of the same account still works.
  expect((await balanceWith(desk.port, desk.apiKey)).status).toBe(200);
});

test('import: a pasted foreign key and a key file work on /v1; bad input is explained in the form', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/keys');
  const foreign = 'partner-KEY_0123456789-abcdefXYZ';

  await page.getByTestId('key-import').click();
  const dialog = page.getByTestId('key-import-dialog');
  // Too short for a key: refused before anything is sent, and the value is not repeated.
  await page.getByTestId('key-import-secret').fill('short-key');
  await page.getByTestId('key-import-name').fill('Партнёр');
  await page.getByTestId('key-import-submit').click();
  await expect(dialog).toContainText('от 20 до 200 печатных символов');
  // A RateDesk-looking key with a wrong checksum: the core refuses, the form says why in Russian.
  await page.getByTestId('key-import-secret').fill('rdk_' + 'A'.repeat(38));
  await page.getByTestId('key-import-submit').click();
  await expect(page.getByTestId('key-import-error')).toContainText('контрольная сумма не сходится');
  await expect(dialog).not.toContainText('A'.repeat(38));

  await page.getByTestId('key-import-secret').fill(foreign);
  await expect(page.getByTestId('key-import-secret')).toHaveAttribute('type', 'password');
  await page.getByTestId('key-import-submit').click();
  await expect(dialog).toHaveCount(0);
  await expect(row(page, 'Партнёр')).toContainText('ИМПОРТ');
  await expect(row(page, 'Партнёр')).toContainText(foreign.slice(-4));
  expect(await page.content()).not.toContain(foreign);
  const ok = await balanceWith(desk.port, foreign);
  expect(ok.status).toBe(200);
  expect(ok.body.balance).toBe(100);

  // The same key again: a conflict, named in plain words.
  await page.getByTestId('key-import').click();
  await page.getByTestId('key-import-secret').fill(foreign);
  await page.getByTestId('key-import-name').fill('Партнёр 2');
  await page.getByTestId('key-import-submit').click();
  await expect(page.getByTestId('key-import-error')).toContainText('Этот ключ уже есть');

  // From a file holding one key: the name is taken from the file name.
  const fileKey = 'file-key-9f8e7d6c5b4a3210zz';
  await page.getByTestId('key-import-mode-file').check();
  await page
    .getByTestId('key-import-file')
    .setInputFiles({ name: 'legacy-erp.txt', mimeType: 'text/plain', buffer: Buffer.from(`${fileKey}\n`) });
  await expect(dialog).toContainText('файл с одним ключом');
  await expect(page.getByTestId('key-import-name')).toHaveValue('legacy-erp');
  await screenshot(page, 'settings-key-import-light');
  await page.getByTestId('key-import-submit').click();
  await expect(dialog).toHaveCount(0);
  await expect(row(page, 'legacy-erp')).toBeVisible();
  expect((await balanceWith(desk.port, fileKey)).status).toBe(200);
});

test('import an export document from another machine; export downloads JSON without secrets', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/keys');
  // An export file as another RateDesk would write it: digests only; its account does not exist here.
  const moved = 'moved-key-from-old-machine-0001';
  const doc = {
    format: 'ratedesk-keys',
    version: 1,
    exported_at: '2025-03-01T10:00:00.000Z',
    keys: [
      {
        name: 'old production',
        account: 'shop-77',
        digest: createHash('sha256').update(moved).digest('hex'),
        prefix: 'move…',
        last_four: moved.slice(-4),
        created_at: '2025-02-11T08:30:00.000Z',
        last_used_at: null,
        revoked_at: null,
        origin: 'imported',
      },
    ],
  };
  await page.getByTestId('key-import').click();
  await page.getByTestId('key-import-mode-file').check();
  await page.getByTestId('key-import-file').setInputFiles({
    name: 'keys.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  });
  await expect(page.getByTestId('key-import-dialog')).toContainText('файл экспорта RateDesk, 1 ключ');
  await expect(page.getByTestId('key-import-name')).toHaveCount(0);
  await page.getByTestId('key-import-submit').click();
  await expect(page.getByTestId('toasts')).toContainText('Импортировано ключей: 1');
  await expect(page.getByTestId('toasts')).toContainText('shop-77');
  await expect(row(page, 'old production')).toBeVisible();
  // It authenticates; the new account has no requests yet (balances never travel with keys).
  const res = await fetch(`http://127.0.0.1:${desk.port}/v1/balance`, {
    headers: { Authorization: `Bearer ${moved}` },
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { balance: number }).balance).toBe(0);

  // Export: a download of the JSON document, digests and no secret.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('key-export').click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^ratedesk-keys-all-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile((await download.path())!, 'utf8');
  const exported = JSON.parse(text) as { format: string; keys: { name: string; digest: string }[] };
  expect(exported.format).toBe('ratedesk-keys');
  expect(exported.keys.map((k) => k.name)).toContain('old production');
  for (const k of exported.keys) expect(k.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(text).not.toContain(desk.apiKey);
  expect(text).not.toContain(moved);
  expect(text).not.toContain('secret');
  await expect(page.getByTestId('toasts')).toContainText('не сами ключи');
  await screenshot(page, 'settings-keys-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'settings-keys-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});
