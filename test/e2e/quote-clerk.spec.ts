// #21, the clerk's quote on the Quote screen: cash on delivery and a declared value, several places (a count
// and a second box), a ship date; each rate's fees, days with their kind and dates; pickup points listed
// under a pickup-point rate, one chosen and named in the copied text; the customer's price beside the
// carrier's (a resale rule set through pricing:set), copied on its own; History's detail of the same quote.
// The real core with the sandbox carriers answers (test/e2e/fixtures.ts).
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { fillMoscowKazan } from './quote-helpers';

const clipboard = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

/** Moscow's date of today and tomorrow (the form's «Сегодня» and «Завтра»). */
function moscowDays(): { today: string; tomorrow: string } {
  const now = Date.now() + 3 * 3_600_000;
  const iso = (t: number): string => new Date(t).toISOString().slice(0, 10);
  return { today: iso(now), tomorrow: iso(now + 86_400_000) };
}

/** Москва → Казань: 2 × 1,2 kg in box M, one 3 kg box L, value 5 000 ₽, COD 2 500 ₽, shipped tomorrow. */
async function fillClerkQuote(page: Page, lang: 'ru' | 'en' = 'ru'): Promise<void> {
  await fillMoscowKazan(page, lang === 'en' ? '1.2' : '1,2');
  await page.getByTestId('place-count').fill('2');
  await page.getByTestId('add-place').click();
  await expect(page.getByTestId('place-2-weight')).toBeFocused();
  await page.keyboard.type('3');
  await page.getByTestId('place-2-box').selectOption({ label: 'L 40×30×20' });
  await page.getByTestId('declared-value').fill('5000');
  await page.getByTestId('cod').fill('2500');
  await page.getByTestId('ship-tomorrow').click();
}

/** The desk's resale rule: 20 % on top, rounded up to 10 ₽ (the customer's price column appears). */
async function markup(desk: Desk): Promise<void> {
  await desk.call('pricing:set', { account: null, carrier: null, markup_percent: 20, rounding: '10' });
}

async function quoteByEnter(page: Page, from = 'cod'): Promise<void> {
  await page.getByTestId(from).press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
}

test('COD, two kinds of box and a ship date go out as the clerk typed them; fees and dates come back', async ({
  page,
  desk,
}) => {
  await markup(desk);
  await openApp(page);
  await fillClerkQuote(page);
  await quoteByEnter(page);
  const { tomorrow } = moscowDays();

  // What the result answers, in words: both boxes, the COD and the date.
  const head = page.getByTestId('result-for');
  await expect(head).toContainText('2 × 1,2\u00a0кг, 30×20×10 см + 3\u00a0кг, 40×30×20 см');
  await expect(head).toContainText('ценность 5\u00a0000,00\u00a0₽');
  await expect(head).toContainText('НП 2\u00a0500,00\u00a0₽');
  await expect(head).toContainText('отгрузка');

  // The core got the clerk's request: places with their counts, the COD and the date.
  const rows = await desk.call('history:search', { limit: 1 });
  const stored = await desk.call('history:get', { id: rows[0]!.id });
  expect(stored.shipment.places).toEqual([
    { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 },
    { weight_grams: 3000, length_cm: 40, width_cm: 30, height_cm: 20, count: 1 },
  ]);
  expect(stored.shipment.cod_kopecks).toBe(250_000);
  expect(stored.shipment.declared_value_kopecks).toBe(500_000);
  expect(stored.shipment.ship_date).toBe(tomorrow);

  // Each rate: days with their kind and the expected dates.
  const table = page.getByTestId('rates-table');
  const first = page.getByTestId('rate-row').first();
  await expect(first.getByTestId('rate-days')).toContainText(/(раб|кал)\.\u00a0дн\./);
  await expect(first.getByTestId('rate-dates')).toContainText(/\d+(–\d+)?\u00a0[а-я]+/);
  // Деловые Линии price insurance apart (a column of its own) and do not quote the COD fee (said in words).
  const dellin = page.locator('[data-testid="rate-row"][data-carrier="dellin"]').first();
  await expect(table.locator('th', { hasText: 'Страховка' })).toBeVisible();
  await expect(dellin.getByTestId('fee-insurance')).toHaveText(/^\d[\d\u202f]*,\d\d\u00a0₽$/);
  await expect(dellin.getByTestId('rate-not-priced')).toContainText(
    'комиссия за НП не учтена в расчёте перевозчика',
  );
  // Its price's parts add up in the tooltip: тариф + страховка = total.
  await expect(dellin.getByTestId('rate-price')).toHaveAttribute('title', /тариф .* \+ страховка .* = /);
  // Every fee cell says something: an amount, «в цене», or «—» with what the price leaves out.
  for (const cell of await table.getByTestId('fee-insurance').all()) {
    await expect(cell).toHaveText(/^(\d[\d\u202f]*,\d\d\u00a0₽|в цене|—)$/);
  }

  // The customer's price beside the carrier's: 20 % on top, rounded up to 10 ₽.
  await expect(table.locator('th', { hasText: 'Клиенту' })).toBeVisible();
  const carrierPrice = Number(await first.getAttribute('data-price'));
  const expected = Math.ceil((carrierPrice * 1.2) / 1000) * 1000;
  const customerText = await first.getByTestId('rate-customer-price').innerText();
  expect(Number(customerText.replace(/[^\d,]/g, '').replace(',', '.')) * 100).toBe(expected);
  // «Копировать цену клиента»: the selected option as text, with the customer's price, not the carrier's.
  await first.click();
  await page.getByTestId('copy-more').click();
  await page.getByTestId('copy-customer').click();
  await expect(page.getByTestId('toast').last()).toContainText('Скопировано с ценой клиента');
  const copied = await clipboard(page);
  expect(copied).toContain(customerText);
  expect(copied).toContain('Москва → Казань');

  // History's detail of the same quote: places, COD, ship date, and the same cells.
  await page.goto(`./#/history/${rows[0]!.id}`);
  await expect(page.getByTestId('history-detail-boxes')).toHaveText(
    '2 × 1,2\u00a0кг, 30×20×10 см + 3\u00a0кг, 40×30×20 см',
  );
  await expect(page.getByTestId('history-detail-cod')).toHaveText('2\u00a0500,00\u00a0₽');
  await expect(page.getByTestId('history-detail-ship-date')).toBeVisible();
  await expect(page.getByTestId('history-rates').getByTestId('rate-dates').first()).toBeVisible();
  await expect(page.getByTestId('history-rates').getByTestId('rate-customer-price').first()).toBeVisible();
  await screenshot(page, 'history-clerk-detail-1280-ru');
});

test('the form: Tab order through the new fields, errors in words, «Сегодня» sends no date', async ({
  page,
  desk,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  // Tab from the box goes: count → «+ Место» → value → COD → date → carriers.
  await page.getByTestId('box-preset').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('place-count')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('add-place')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('declared-value')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('cod')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('ship-date')).toBeFocused();
  // «Сегодня» / «Завтра» are mouse shortcuts: the next Tab stop is the carriers.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('carrier-picker')).toBeFocused();

  await page.getByTestId('place-count').fill('0');
  await page.getByTestId('cod').fill('много');
  await page.getByTestId('cod').press('Enter');
  await expect(page.getByTestId('parcel-messages')).toContainText('Мест — целое число от 1 до 50');
  await expect(page.getByTestId('ask-messages')).toContainText('Наложенный платёж — рубли с копейками');
  await expect(page.getByTestId('place-count')).toBeFocused();
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'idle');

  // A second place left empty: its own line names it.
  await page.getByTestId('place-count').fill('');
  await page.getByTestId('cod').fill('');
  await page.getByTestId('add-place').click();
  await page.getByTestId('place-2-weight').press('Enter');
  await expect(page.getByTestId('place-2-messages')).toContainText('Место 2, вес');
  await expect(page.getByTestId('place-2-weight')).toBeFocused();
  await page.getByTestId('place-2-remove').click();
  await expect(page.getByTestId('place-2')).toHaveCount(0);

  // «Завтра», then «Сегодня»: today is not sent (the core applies the cut-off); one box is the /v1 parcel.
  await page.getByTestId('ship-tomorrow').click();
  await expect(page.getByTestId('ship-tomorrow')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('ship-today').click();
  await expect(page.getByTestId('ship-date')).toHaveValue(moscowDays().today);
  // Enter in the date quotes, as from every field of the form.
  await quoteByEnter(page, 'ship-date');
  const [row] = await desk.call('history:search', { limit: 1 });
  const stored = await desk.call('history:get', { id: row!.id });
  expect(stored.shipment.parcel).toEqual({ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 });
  expect(stored.shipment.places).toBeUndefined();
  expect(stored.shipment.ship_date).toBeUndefined();
  expect(stored.shipment.cod_kopecks).toBe(0);

  // The form is kept as typed across a reload (persist), the further places too.
  await page.getByTestId('add-place').click();
  await page.getByTestId('place-2-weight').fill('2,5');
  await page.getByTestId('cod').fill('1 000');
  await page.reload();
  await expect(page.getByTestId('place-2-weight')).toHaveValue('2,5');
  await expect(page.getByTestId('cod')).toHaveValue('1 000');
});

test('pickup points: listed under the rate, one chosen, named in the copied text', async ({ page }) => {
  await openApp(page);
  await fillClerkQuote(page);
  await quoteByEnter(page);
  const row = page
    .locator('[data-testid="rate-row"][data-carrier="cdek"][data-delivery="pickup_point"]')
    .first();
  await row.getByTestId('points-toggle').click();
  const panel = page.getByTestId('points-panel');
  await expect(panel).toContainText('Пункты выдачи — СДЭК, Казань');
  const points = panel.getByTestId('point');
  await expect(points.first()).toBeVisible();
  // Each point: address, limits, distance from the centre.
  await expect(points.first()).toContainText(/км от центра/);
  // COD was asked: every point listed takes it.
  for (const p of await points.all()) await expect(p).toContainText('НП');
  const code = await points.first().getAttribute('data-code');
  await points.first().click();
  await expect(points.first()).toHaveClass(/point-chosen/);
  await screenshot(page, 'quote-clerk-points-1280-ru');
  await panel.getByTestId('points-close').click();
  await expect(page.getByTestId('point-chosen')).toContainText(code!);

  // The row is selected: Ctrl+C copies it with the chosen point.
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('toast').last()).toBeVisible();
  const text = await clipboard(page);
  expect(text).toContain(`пункт выдачи ${code}`);
  expect(text).toMatch(/\(\d+(–\d+)?\u00a0[а-я]+/);

  // «Скачать CSV» sends the chosen point with its rate (quote:export's points): the file names it.
  await page.getByTestId('copy-more').click();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('quote-export-csv').click(),
  ]);
  expect(await readFile((await csv.path())!, 'utf8')).toContain(code!);
});

for (const [width, height] of [
  [1280, 800],
  [1024, 640],
] as const) {
  for (const lang of ['ru', 'en'] as const) {
    test(`screenshots: the clerk's quote at ${width}×${height}, ${lang.toUpperCase()}`, async ({
      page,
      desk,
    }) => {
      await markup(desk);
      await page.setViewportSize({ width, height });
      await openApp(page);
      if (lang === 'en') await page.getByTestId('lang-en').click();
      await fillClerkQuote(page, lang);
      await quoteByEnter(page);
      await screenshot(page, `quote-clerk-${width}-${lang}`);
      const row = page
        .locator('[data-testid="rate-row"][data-carrier="cdek"][data-delivery="pickup_point"]')
        .first();
      await row.getByTestId('points-toggle').click();
      await page.getByTestId('point').first().click();
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `quote-clerk-points-${width}-${lang}`);
    });
  }
}
