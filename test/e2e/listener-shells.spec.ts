// Settings → Listener (#17 item 9): the test commands for bash, PowerShell and cmd, each copyable and quoted
// for its shell (the quoting itself is unit-tested, shell-commands.test.ts); the key never on screen.
// Screenshots at 1280×800 and 1024×640, RU and EN.
import { expect, openApp, screenshot, test } from './fixtures';

test('bash, PowerShell and cmd commands, each copied as shown', async ({ page, desk }) => {
  await openApp(page, 'settings/listener');
  const url = `http://127.0.0.1:${desk.port}`;
  // Linux: bash first.
  await expect(page.getByTestId('listener-shell-bash')).toBeChecked();
  await expect(page.getByTestId('listener-curl')).toHaveText(
    `curl -sS -H "Authorization: Bearer $RATEDESK_API_KEY" ${url}/v1/balance`,
  );

  await page.getByTestId('listener-shell-powershell').check();
  await expect(page.getByTestId('listener-curl')).toHaveText(
    `Invoke-RestMethod -Uri '${url}/v1/balance' \`\n  -Headers @{ Authorization = "Bearer $env:RATEDESK_API_KEY" }`,
  );
  const rates = page.getByTestId('listener-curl-rates');
  await expect(rates).toContainText(`Invoke-RestMethod -Method Post -Uri '${url}/v1/rates'`);
  await expect(rates).toContainText('-Body \'{"from":{"city":"\\u041c\\u043e\\u0441\\u043a\\u0432\\u0430"');
  await expect(page.getByTestId('listener-key-hint')).toContainText("$env:RATEDESK_API_KEY = '…'");
  await page.getByTestId('listener-curl-rates-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await rates.textContent());
  await expect(page.getByTestId('toast').last()).toContainText('Команда для PowerShell скопирована');

  // Arrow keys move through the shells (native radios).
  await page.getByTestId('listener-shell-powershell').press('ArrowRight');
  await expect(page.getByTestId('listener-shell-cmd')).toBeChecked();
  await expect(page.getByTestId('listener-curl')).toHaveText(
    `curl.exe -sS -H "Authorization: Bearer %RATEDESK_API_KEY%" ${url}/v1/balance`,
  );
  await expect(rates).toContainText(`curl.exe -sS -X POST ${url}/v1/rates ^`);
  await expect(rates).toContainText('--data-raw "{\\"from\\":{\\"city\\":\\"\\u041c');
  await expect(page.getByTestId('listener-key-hint')).toContainText('set RATEDESK_API_KEY=…');
  await page.getByTestId('listener-curl-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `curl.exe -sS -H "Authorization: Bearer %RATEDESK_API_KEY%" ${url}/v1/balance`,
  );
  expect(await page.content()).not.toContain(desk.apiKey);
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`the listener tab in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`at 1280×800 and 1024×640 (${lang})`, async ({ page }) => {
      await openApp(page, 'settings/listener');
      await page.getByTestId('listener-shell-powershell').check();
      await page.getByTestId('listener-curl-rates').scrollIntoViewIfNeeded();
      await screenshot(page, `listener-powershell-1280-${lang}`);
      await page.setViewportSize({ width: 1024, height: 640 });
      await page.getByTestId('listener-shell-cmd').check();
      await page.getByTestId('listener-key-hint').scrollIntoViewIfNeeded();
      await screenshot(page, `listener-cmd-1024-${lang}`);
    });
  });
}
