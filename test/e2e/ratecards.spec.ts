// Rate cards on the Carriers screen against a real core (#10 item 2): a bad file is refused with every bad
// line listed by number in the UI language and nothing stored; a good file is imported; the card's rates
// then appear on the quote screen; replace and remove (confirmed) from the keyboard.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test } from './fixtures';
import { fillMoscowKazan, quote } from './quote-helpers';

const EXAMPLE = readFileSync(new URL('../../docs/examples/ratecard-example.csv', import.meta.url));

const BAD = [
  'from;to;max_weight_grams;price_rub;days_min;days_max;delivery_type',
  'Москва;*;1000;350;1;2;door',
  'Москва;Атлантида;1000;350;1;2;door',
  'Москва;*;5000;12,345;3;1;door',
  'Москва;*;5000;100;1;2;teleport',
].join('\n');

function choose(page: Page, name: string, content: string | Buffer): Promise<void> {
  return page.getByTestId('ratecard-file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
  });
}

test('a bad file shows its lines; a good file is imported; its rates reach the quote screen', async ({
  page,
  desk,
}) => {
  await openApp(page, 'carriers');
  const section = page.getByTestId('ratecards');
  await expect(section.getByRole('heading', { name: 'Тарифные сетки' })).toBeVisible();
  await expect(page.getByTestId('ratecards-empty')).toBeVisible();

  await page.getByTestId('ratecard-import').click();
  const dialog = page.getByTestId('ratecard-import-dialog');
  await expect(dialog).toBeVisible();

  // The bad file: every bad line by its number, in Russian; nothing is stored, the import is not sent.
  await choose(page, 'courier-plus.csv', BAD);
  const problems = page.getByTestId('ratecard-problems');
  await expect(problems).toContainText('Файл не принят: 3 строки с ошибками');
  const items = page.getByTestId('ratecard-problem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toHaveText(
    'Строка 3: to: город «Атлантида» не найден в справочнике (укажите начало индекса или *)',
  );
  await expect(items.nth(1)).toHaveText(
    'Строка 4: price_rub: «12,345» — нужна цена в рублях, не больше 2 знаков после запятой; минимальный срок больше максимального (3 > 1)',
  );
  await expect(items.nth(2)).toContainText('Строка 5: delivery_type: «teleport»');
  // The code was proposed from the file name.
  await expect(page.getByTestId('ratecard-code')).toHaveValue('courier-plus');
  await page.getByTestId('ratecard-name').fill('Курьер Плюс');
  await page.getByTestId('ratecard-import-submit').click();
  await expect(dialog).toContainText('В файле есть ошибки');
  await expect(problems).toBeFocused();
  expect(await desk.call('ratecards:list')).toEqual([]);
  await screenshot(page, 'ratecards-bad-file-light');

  // The good file (the example of docs/carriers.md), submitted with Enter from the name field.
  await choose(page, 'courier-plus.csv', EXAMPLE);
  await expect(page.getByTestId('ratecard-file-ok')).toHaveText('Файл прочитан: 10 строк, 2 услуги.');
  await expect(problems).toHaveCount(0);
  await page.getByTestId('ratecard-name').press('Enter');
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('ratecard-row-courier-plus');
  await expect(row).toContainText('Курьер Плюс');
  await expect(row).toContainText('Курьер до двери, До пункта выдачи');
  await expect(row).toContainText('20\u00a0кг');
  expect((await desk.call('ratecards:list')).map((c) => [c.code, c.name, c.rows])).toEqual([
    ['courier-plus', 'Курьер Плюс', 10],
  ]);
  // GET /v1/carriers lists it like any carrier.
  const carriers = await desk.http.get('/v1/carriers');
  expect(carriers.json.carriers).toContainEqual({
    code: 'courier-plus',
    name: 'Курьер Плюс',
    status: 'unknown',
  });
  await screenshot(page, 'ratecards-light');

  // The quote screen: Москва → Казань 1,2 kg in 30×20×10 — the card's door rate "Москва;*;5000" (1 690,50 ₽,
  // billed at 1 200 g) and its pickup rate "Москва;420;20000" (790 ₽), beside the sandbox carriers.
  await page.getByTestId('nav-quote').click();
  await fillMoscowKazan(page);
  await quote(page);
  const cardRows = page.locator('[data-testid="rate-row"][data-carrier="courier-plus"]');
  await expect(cardRows).toHaveCount(2);
  expect(
    await cardRows.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute('data-price'))).sort((a, b) => a - b),
    ),
  ).toEqual([79000, 169050]);
  await expect(cardRows.first()).toContainText('Курьер Плюс');
  await expect(page.getByTestId('carrier-status-courier-plus')).toHaveAttribute('data-state', 'answered');
  await expect(page.locator('[data-testid="rate-row"][data-carrier="cdek"]').first()).toBeVisible();

  // The carrier picker offers the card like any carrier; asking for it alone quotes only it.
  await page.getByTestId('carrier-picker').click();
  for (const code of ['cdek', 'russian-post']) await page.getByTestId(`carrier-option-${code}`).uncheck();
  await expect(page.getByTestId('carrier-option-courier-plus')).toBeChecked();
  await page.getByTestId('carrier-picker').click();
  await quote(page);
  await expect(cardRows).toHaveCount(2);
  await expect(page.locator('[data-testid="rate-row"][data-carrier="cdek"]')).toHaveCount(0);
});

test('replace with a new file and remove with confirmation, from the keyboard; English', async ({
  page,
  desk,
}) => {
  await desk.call('ratecards:import', {
    code: 'courier',
    name: 'Courier',
    csv: EXAMPLE.toString('utf8'),
  });
  await openApp(page, 'carriers');
  await page.getByTestId('lang-en').click();
  const row = page.getByTestId('ratecard-row-courier');
  await expect(row).toContainText('Courier');

  // Replace: the code is fixed, the name kept; the new file's problems read in English.
  await page.getByTestId('ratecard-replace-courier').click();
  const dialog = page.getByTestId('ratecard-import-dialog');
  await expect(dialog).toContainText('Replace the rate card Courier');
  await expect(page.getByTestId('ratecard-code')).toBeDisabled();
  await choose(
    page,
    'new.csv',
    'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,0,1,1,1,door\n',
  );
  await expect(page.getByTestId('ratecard-problem')).toHaveText(
    'Line 2: max_weight_grams: “0” — a whole number of grams from 1 to 1,000,000 is needed',
  );
  await choose(
    page,
    'new.csv',
    'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,5000,199,1,1,door\n',
  );
  await expect(page.getByTestId('ratecard-file-ok')).toHaveText('File read: 1 row, 1 service.');
  await page.getByTestId('ratecard-import-submit').click();
  await expect(dialog).toHaveCount(0);
  expect((await desk.call('ratecards:list'))[0]).toMatchObject({ code: 'courier', name: 'Courier', rows: 1 });

  // Remove: Cancel has the focus, so Enter keeps the card; then confirm.
  await page.getByTestId('ratecard-remove-courier').focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByTestId('ratecard-remove-dialog');
  await expect(confirm).toContainText('Remove the rate card Courier?');
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  expect(await desk.call('ratecards:list')).toHaveLength(1);
  await page.getByTestId('ratecard-remove-courier').click();
  await page.getByTestId('ratecard-remove-confirm').click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('ratecards-empty')).toBeVisible();
  expect(await desk.call('ratecards:list')).toEqual([]);
});
