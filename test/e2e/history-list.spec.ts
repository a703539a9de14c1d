// History that reads at a glance (#17 item 8), at 1280×800 and 1024×640, in Russian and English: every
// column inside the table (text that must be cut ends in an ellipsis and has the whole text as its tooltip),
// a partial answer marked in the list, «Дешевле всего» naming the carrier, and a re-run that says «без
// изменений» once and lists the carrier that failed.
import type { Locator, Page } from '@playwright/test';
import type { SqliteStore } from '../../core/store';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { MOSCOW_KAZAN } from './quote-helpers';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const;

const PALLET = { weight_grams: 300_000, length_cm: 120, width_cm: 100, height_cm: 100 };

/** A day of quotes: an ordinary parcel, a pallet (five carriers over their limits), a long route, a town no
 * carrier knows, and a /v1 call. Returns the ids of the parcel and of the pallet. */
async function aDayOfQuotes(desk: Desk): Promise<{ parcel: number; pallet: number }> {
  const parcel = await desk.call('quote:run', { quoteKey: 'a', shipment: MOSCOW_KAZAN });
  const pallet = await desk.call('quote:run', {
    quoteKey: 'b',
    shipment: { ...MOSCOW_KAZAN, parcel: PALLET },
  });
  await desk.call('quote:run', {
    quoteKey: 'c',
    shipment: {
      from: { city: 'Санкт-Петербург' },
      to: { city: 'Петропавловск-Камчатский' },
      parcel: { weight_grams: 2000, length_cm: 30, width_cm: 20, height_cm: 10 },
    },
  });
  await desk.call('quote:run', {
    quoteKey: 'd',
    shipment: { ...MOSCOW_KAZAN, to: { city: 'Нетгородово', postal_code: '420000' } },
  });
  const api = await desk.http.postRates({
    from: { city: 'Тула' },
    to: { city: 'Казань', postal_code: '420000' },
    parcel: { weight_grams: 500, length_cm: 10, width_cm: 10, height_cm: 10 },
  });
  expect(api.status).toBe(200);
  return { parcel: parcel.quote_id, pallet: pallet.quote_id };
}

/**
 * Problems with how a table fits: a table wider than its box, a cell whose content spills out, or text cut
 * without an ellipsis and a tooltip holding the whole text. Empty when every column reads whole or cut right.
 */
async function fitProblems(table: Locator): Promise<string[]> {
  return table.evaluate((t) => {
    const problems: string[] = [];
    const wrap = t.parentElement!;
    if (wrap.scrollWidth > wrap.clientWidth + 1)
      problems.push(`table ${wrap.scrollWidth}px in a box of ${wrap.clientWidth}px`);
    const box = wrap.getBoundingClientRect();
    for (const cell of Array.from(t.querySelectorAll<HTMLElement>('th, td'))) {
      const r = cell.getBoundingClientRect();
      const label = `${cell.tagName} «${(cell.textContent ?? '').trim().slice(0, 40)}»`;
      if (r.right > box.right + 1 || r.left < box.left - 1) problems.push(`${label} outside the table`);
      for (const el of [cell, ...Array.from(cell.querySelectorAll<HTMLElement>('*'))]) {
        // Text for screen readers only is clipped on purpose.
        if (el.closest('.sr-only')) continue;
        if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
        const style = getComputedStyle(el);
        // Only text whose own box cuts it: a box that just holds an overflowing child is judged by the child.
        if (style.overflowX === 'visible') {
          if (el !== cell && el.scrollWidth > cell.clientWidth + 1) problems.push(`${label}: spills out`);
          continue;
        }
        const full = (el.textContent ?? '').trim();
        if (style.textOverflow !== 'ellipsis') problems.push(`${label}: cut without an ellipsis`);
        else if (el.getAttribute('title') !== full)
          problems.push(`${label}: cut without the whole text as tooltip`);
      }
      if (cell.scrollWidth > cell.clientWidth + 1 && getComputedStyle(cell).textOverflow !== 'ellipsis') {
        const cut = Array.from(cell.querySelectorAll<HTMLElement>('*')).some(
          (e) => getComputedStyle(e).textOverflow === 'ellipsis',
        );
        if (!cut) problems.push(`${label}: wider than its column`);
      }
    }
    return problems;
  });
}

async function switchTo(page: Page, lang: 'ru' | 'en'): Promise<void> {
  await page.getByTestId(`lang-${lang}`).click();
  await expect(page.getByTestId(`lang-${lang}`)).toHaveAttribute('aria-pressed', 'true');
}

for (const size of SIZES) {
  test(`the list at ${size.width}×${size.height}: every column inside the table, RU and EN`, async ({
    page,
    desk,
  }) => {
    await page.setViewportSize(size);
    await aDayOfQuotes(desk);
    await openApp(page, 'history');
    const table = page.getByTestId('history-table');
    await expect(page.getByTestId('history-row')).toHaveCount(5);
    for (const lang of ['ru', 'en'] as const) {
      await switchTo(page, lang);
      expect(await fitProblems(table), `${lang} at ${size.width}`).toEqual([]);
      // The source column is on screen, not scrolled away.
      await expect(table.locator('thead th').last()).toBeInViewport({ ratio: 1 });
      await screenshot(page, `history-list-${size.width}-${lang}`);
    }
  });
}

test('a partial answer is marked in the list, and «Дешевле всего» names the carrier', async ({
  page,
  desk,
}) => {
  const ids = await aDayOfQuotes(desk);
  await openApp(page, 'history');
  const pallet = page.locator(`[data-testid="history-row"][data-id="${ids.pallet}"]`);
  const parcel = page.locator(`[data-testid="history-row"][data-id="${ids.parcel}"]`);
  await expect(pallet).toHaveAttribute('data-partial', 'true');
  const mark = pallet.getByTestId('history-partial');
  await expect(mark).toHaveText('3 из 8');
  await expect(mark).toHaveAttribute('title', /^Не рассчитано: .*больше, чем берёт перевозчик$/);
  await expect(parcel).toHaveAttribute('data-partial', 'false');
  await expect(parcel.getByTestId('history-partial')).toHaveCount(0);

  for (const [row, id] of [
    [parcel, ids.parcel],
    [pallet, ids.pallet],
  ] as const) {
    const q = await desk.call('history:get', { id });
    const cheapest = [...q.rates].sort((a, b) => a.price_kopecks - b.price_kopecks)[0]!;
    await expect(row.getByTestId('history-cheapest')).toContainText(cheapest.carrier_name);
  }
});

test.describe('a re-run', () => {
  // No rate cache: the re-run must really ask CDEK, which the desk's breaker now skips.
  test.use({ deskOptions: { settings: { 'rating.cache_ttl_ms': '0' } } });

  test('says «без изменений» once, and lists the carrier that failed', async ({ page, desk }) => {
    const { quote_id: id } = await desk.call('quote:run', { quoteKey: 'a', shipment: MOSCOW_KAZAN });
    // Two stored prices differ from today's; CDEK fails three times, so its breaker skips it in the re-run.
    const db = (desk.service.store as SqliteStore).db;
    const row = db.prepare('SELECT result_json FROM quotes WHERE id = ?').get(id) as { result_json: string };
    const stored = JSON.parse(row.result_json) as { rates: { carrier: string; price_kopecks: number }[] };
    const others = stored.rates.filter((r) => r.carrier !== 'cdek');
    others[0]!.price_kopecks -= 1000;
    others[1]!.price_kopecks += 500;
    db.prepare('UPDATE quotes SET result_json = ? WHERE id = ?').run(JSON.stringify(stored), id);
    const failing = { ...MOSCOW_KAZAN, to: { city: 'Казань', postal_code: '999912' } };
    for (let i = 0; i < 3; i++) await desk.call('quote:run', { quoteKey: `f${i}`, shipment: failing });

    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openApp(page, `history/${id}`);
      await page.getByTestId('rerun').click();
      const changes = page.getByTestId('rerun-changes');
      await expect(changes).toBeVisible();
      for (const lang of ['ru', 'en'] as const) {
        await switchTo(page, lang);
        const same = lang === 'ru' ? 'без изменений' : 'no change';
        const text = (await changes.innerText()).toLowerCase();
        expect(text.split(same).length - 1, `«${same}» said once`).toBe(1);
        await expect(changes.getByTestId('change-same')).toHaveCount(1);
        await expect(changes.getByTestId('change-up')).toHaveCount(1);
        await expect(changes.getByTestId('change-down')).toHaveCount(1);
        // CDEK's services are not «no longer offered» one by one: CDEK gave no price this time, said once.
        await expect(changes.getByTestId('change-gone')).toHaveCount(0);
        // Carrier names follow the UI language (#17): CDEK in English.
        const cdek = lang === 'ru' ? 'СДЭК' : 'CDEK';
        await expect(changes.locator('tbody tr', { hasText: cdek })).toHaveCount(0);
        await expect(changes.getByTestId('rerun-not-rated')).toContainText(
          lang === 'ru'
            ? 'Не рассчитано при повторе: СДЭК — временно пропущен после сбоев'
            : 'Not quoted in the re-run: CDEK — skipped for now after failures',
        );
        for (const table of await page.locator('[data-testid="history-detail"] table').all())
          expect(await fitProblems(table), `${lang} at ${size.width}`).toEqual([]);
        await screenshot(page, `history-rerun-${size.width}-${lang}`);
      }
      await switchTo(page, 'ru');
    }
  });
});
