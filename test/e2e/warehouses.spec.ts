// Named warehouses on a local desk (#20, embedded mode: the warehouses live in the local store): created in
// Settings → «Склады», picked as «Откуда» on the quote form (its place, carriers and boxes fill in; the choice
// survives a reload), «из всех складов» with the cheapest and fastest origin badged in words, and History
// naming the warehouse and filtering by it. Screenshots at 1280×800 and 1024×640 in Russian and English.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';

const MOSCOW = { name: 'Склад Москва', city: 'Москва', postal: '101000' };
const SPB = { name: 'Склад Питер', city: 'Санкт-Петербург', postal: '190000' };

async function setting(desk: Desk, name: string): Promise<string | undefined> {
  return (await desk.call('settings:get')).find((s) => s.name === name)?.value;
}

/** Fills the warehouse dialog the way an admin does and saves it. */
async function addWarehouse(
  page: Page,
  w: { name: string; city: string; postal: string },
  extra: { onlyCarrier?: string; box?: [string, string, string, string] } = {},
): Promise<void> {
  await page.getByTestId('warehouse-add').click();
  const dialog = page.getByTestId('warehouse-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('warehouse-name')).toBeFocused();
  await page.getByTestId('warehouse-name').fill(w.name);
  await page.getByTestId('wh-city').fill(w.city);
  await page.getByTestId('wh-postal').fill(w.postal);
  if (extra.onlyCarrier) {
    await dialog.getByTestId('carrier-picker').click();
    await dialog.getByTestId(`carrier-only-${extra.onlyCarrier}`).click();
  }
  if (extra.box) {
    await page.getByTestId('warehouse-box-add').click();
    const row = dialog.getByTestId('preset-row').last();
    for (const [i, f] of (['name', 'length', 'width', 'height'] as const).entries()) {
      await row.getByTestId(`preset-${f}`).fill(extra.box[i]!);
    }
  }
  await page.getByTestId('warehouse-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`[data-testid="warehouse-row"][data-name="${w.name}"]`)).toBeVisible();
}

test('warehouses: created in Settings, picked as «Откуда», quoted from all, found in History', async ({
  page,
  desk,
}) => {
  await openApp(page, 'settings/warehouses');
  await expect(page.getByTestId('warehouses-empty')).toBeVisible();

  // A name is required, and the city; each problem is said in its field.
  await page.getByTestId('warehouse-add').click();
  await page.getByTestId('warehouse-save').click();
  await expect(page.locator('#wh-name-error')).toHaveText('Укажите название');
  await expect(page.getByTestId('warehouse-name')).toBeFocused();
  await page.getByRole('button', { name: 'Отмена' }).click();

  await addWarehouse(page, MOSCOW, { box: ['Склад М', '25', '15', '10'] });
  await addWarehouse(page, SPB, { onlyCarrier: 'cdek' });
  const stored = await desk.call('warehouses:list');
  expect(stored.map((w) => [w.name, w.city, w.postal_code])).toEqual([
    [MOSCOW.name, MOSCOW.city, MOSCOW.postal],
    [SPB.name, SPB.city, SPB.postal],
  ]);
  expect(stored[0]!.box_presets).toEqual([{ name: 'Склад М', length_cm: 25, width_cm: 15, height_cm: 10 }]);
  expect(stored[1]!.default_carriers).toEqual(['cdek']);
  // A second warehouse of the same name is refused in the field, before the round trip.
  await page.getByTestId('warehouse-add').click();
  await page.getByTestId('warehouse-name').fill(SPB.name.toUpperCase());
  await page.getByTestId('warehouse-save').click();
  await expect(page.locator('#wh-name-error')).toHaveText('Склад с таким названием уже есть');
  await page.keyboard.press('Escape');

  // The quote form: «Откуда» is the picker, the cursor starts there.
  await openApp(page, 'quote');
  const picker = page.getByTestId('from-warehouse');
  await expect(picker).toBeFocused();
  await picker.selectOption({ label: SPB.name });
  await expect(page.getByTestId('from-city')).toHaveValue(SPB.city);
  await expect(page.getByTestId('from-postal')).toHaveValue(SPB.postal);
  await expect(page.getByTestId('from-city')).toHaveAttribute('readonly', '');
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('СДЭК');
  await expect.poll(() => setting(desk, 'ui.warehouse')).toBe(String(stored[1]!.id));

  // Its own boxes for the Moscow one; Tab goes from the picker straight to «Куда».
  await picker.selectOption({ label: MOSCOW.name });
  await expect(page.getByTestId('from-city')).toHaveValue(MOSCOW.city);
  await expect(page.getByTestId('box-preset').locator('option')).toHaveText([
    'свои размеры',
    'Склад М 25×15×10',
  ]);
  await expect(page.getByTestId('carrier-picker-value')).toHaveText('все');
  await picker.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('to-city')).toBeFocused();

  // Remembered per desk: after a reload the same warehouse, its place filled in.
  await page.reload();
  await expect(page.getByTestId('from-warehouse')).toHaveValue(String(stored[0]!.id));
  await expect(page.getByTestId('from-city')).toHaveValue(MOSCOW.city);
  await expect(page.getByTestId('from-postal')).toHaveValue(MOSCOW.postal);
  // Esc clears the form, not the desk's warehouse; Ctrl+K goes back to the picker.
  await page.getByTestId('to-city').fill('Тула');
  await page.getByTestId('to-city').press('Escape');
  await page.getByTestId('to-city').press('Escape');
  await expect(page.getByTestId('to-city')).toHaveValue('');
  await expect(page.getByTestId('from-warehouse')).toHaveValue(String(stored[0]!.id));
  await expect(page.getByTestId('from-city')).toHaveValue(MOSCOW.city);
  await page.getByTestId('weight').click();
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('from-warehouse')).toBeFocused();

  // A single quote from it: History records the warehouse.
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('box-preset').selectOption({ label: 'Склад М 25×15×10' });
  await page.getByTestId('weight').press('Enter');
  await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
  const single = await desk.call('history:search', { text: '' });
  expect(single[0]!.warehouse).toBe(MOSCOW.name);

  // «Из всех складов»: one block per warehouse, the cheapest and fastest origin named in words.
  await page.getByTestId('from-warehouse').selectOption({ label: 'из всех складов' });
  await expect(page.getByTestId('from-city')).toHaveValue('все склады (2)');
  await page.getByTestId('weight').press('Enter');
  const origins = page.getByTestId('origins');
  await expect(origins).toHaveAttribute('data-phase', 'done');
  const blocks = origins.getByTestId('origin-block');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0)).toHaveAttribute('data-warehouse', MOSCOW.name);
  await expect(blocks.nth(1)).toHaveAttribute('data-warehouse', SPB.name);
  // The comparison at a glance above the blocks: one line per warehouse.
  await expect(origins.getByTestId('origins-summary-row')).toHaveCount(2);
  await expect(origins.getByTestId('origin-cheapest')).toHaveCount(1);
  await expect(origins.getByTestId('origin-cheapest')).toHaveText('ДЕШЕВЛЕ ВСЕГО');
  await expect(origins.getByTestId('origin-fastest')).toHaveCount(1);
  await expect(origins.getByTestId('origin-fastest')).toHaveText('БЫСТРЕЕ ВСЕГО');
  // The badge sits on the origin whose lowest price is the lowest (prices as `1 234,50 ₽`).
  const lowest = async (i: number): Promise<number> =>
    Number(await blocks.nth(i).getByTestId('origin-rate').first().getAttribute('data-price'));
  const [a, b] = [await lowest(0), await lowest(1)];
  const cheapest = blocks.nth(a <= b ? 0 : 1);
  await expect(cheapest).toHaveAttribute('data-cheapest', 'true');
  await expect(cheapest.getByTestId('origin-price')).toHaveText(/^от \d{1,3}(\s\d{3})*,\d{2}\s₽$/u);

  // History: the warehouse column, and the filter by it.
  await openApp(page, 'history');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('columnheader', { name: 'Склад' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Автор' })).toHaveCount(0);
  await page.getByTestId('history-filter-warehouse').selectOption(SPB.name);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('history-warehouse')).toHaveText(SPB.name);
  await page.getByTestId('history-filter-warehouse').selectOption(MOSCOW.name);
  await expect(rows).toHaveCount(2);
  await rows.first().click();
  await expect(page.getByTestId('history-detail-warehouse')).toHaveText(MOSCOW.name);

  // Removing asks first; History keeps the name.
  await openApp(page, 'settings/warehouses');
  await page
    .locator(`[data-testid="warehouse-row"][data-name="${SPB.name}"]`)
    .getByTestId('warehouse-remove')
    .click();
  await expect(page.getByTestId('warehouse-remove-confirm')).toContainText(SPB.name);
  await page.getByTestId('warehouse-remove-confirm-button').click();
  await expect(page.getByTestId('warehouse-row')).toHaveCount(1);
  expect((await desk.call('history:search', { text: '', warehouse: SPB.name })).length).toBe(1);
});

test('no warehouses: «Откуда» is the plain city field, and History shows no warehouse column', async ({
  page,
}) => {
  await openApp(page, 'quote');
  await expect(page.getByTestId('from-city')).toBeFocused();
  await expect(page.getByTestId('from-warehouse')).toHaveCount(0);
  await openApp(page, 'history');
  await expect(page.getByTestId('history-filter-warehouse')).toHaveCount(0);
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`warehouses in ${lang}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });
    test(`screenshots at 1280×800 and 1024×640 (${lang})`, async ({ page, desk }) => {
      const a = await desk.call('warehouses:create', {
        name: lang === 'ru' ? 'Подольск, основной' : 'Podolsk main',
        city: 'Подольск',
        postal_code: '142100',
        address: lang === 'ru' ? 'ул. Комсомольская, 1, ворота 3' : '1 Komsomolskaya St, gate 3',
        box_presets: [{ name: 'P', length_cm: 40, width_cm: 30, height_cm: 20 }],
      });
      await desk.call('warehouses:create', {
        name: lang === 'ru' ? 'Санкт-Петербург, Шушары' : 'St Petersburg, Shushary',
        city: 'Санкт-Петербург',
        postal_code: '196626',
        default_carriers: ['cdek', 'russian-post'],
      });
      await desk.call('settings:set', { name: 'ui.warehouse', value: String(a.id) });
      for (const [w, h] of [
        [1280, 800],
        [1024, 640],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await openApp(page, 'settings/warehouses');
        await expect(page.getByTestId('warehouse-row')).toHaveCount(2);
        await screenshot(page, `warehouses-tab-${w}-${lang}`);
        await page.getByTestId('warehouse-edit').first().click();
        await expect(page.getByTestId('warehouse-dialog')).toBeVisible();
        await screenshot(page, `warehouses-form-${w}-${lang}`);
        await page.keyboard.press('Escape');

        await openApp(page, 'quote');
        await expect(page.getByTestId('from-warehouse')).toHaveValue(String(a.id));
        await page.getByTestId('to-city').fill('Казань');
        await page.getByTestId('to-postal').fill('420000');
        await page.getByTestId('weight').fill(lang === 'ru' ? '1,2' : '1.2');
        await page.getByTestId('box-preset').selectOption({ index: 1 });
        await page.getByTestId('weight').press('Enter');
        await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
        await screenshot(page, `warehouses-picker-${w}-${lang}`);

        await page.getByTestId('from-warehouse').selectOption('all');
        await page.getByTestId('weight').press('Enter');
        await expect(page.getByTestId('origins')).toHaveAttribute('data-phase', 'done');
        await screenshot(page, `warehouses-all-${w}-${lang}`);
        await page.getByTestId('from-warehouse').selectOption(String(a.id));

        await openApp(page, 'history');
        await expect(page.getByTestId('history-row').first()).toBeVisible();
        await screenshot(page, `warehouses-history-${w}-${lang}`);
        // The warehouse column costs no other column its place: nothing spills out of the table.
        const spill = await page.getByTestId('history-table').evaluate((t) => {
          const wrap = t.parentElement!;
          const box = wrap.getBoundingClientRect();
          const out = Array.from(t.querySelectorAll<HTMLElement>('td .badge, td a, th')).filter(
            (el) => el.getBoundingClientRect().right > box.right + 0.5,
          );
          return { scroll: wrap.scrollWidth - wrap.clientWidth, out: out.map((el) => el.textContent) };
        });
        expect(spill).toEqual({ scroll: 0, out: [] });
      }
    });
  });
}
