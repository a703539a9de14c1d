// Unavailability that reads right (#17 item 4): an expected limit is neutral and said once; one cause is one
// reason (an unknown town is «город не найден» once, for every carrier) and the advice never asks for what is
// typed; an answer with no rate offers «Повторить»; a carrier skipped by its breaker says until when and can
// be asked now.
import type { Locator, Page } from '@playwright/test';
import { onlyCarriers } from '../helpers/service';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { fillMoscowKazan, MOSCOW_KAZAN, quote } from './quote-helpers';

/** The text a sighted clerk reads in `el` (screen-reader-only text left out). */
function visibleText(el: Locator): Promise<string> {
  return el.evaluate((root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let out = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement?.closest('.sr-only')) out += n.textContent ?? '';
    }
    return out.replace(/\s+/g, ' ');
  });
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

async function fillPallet(page: Page): Promise<void> {
  await fillMoscowKazan(page, '300');
  await page.getByTestId('length').fill('120');
  await page.getByTestId('width').fill('100');
  await page.getByTestId('height').fill('100');
}

/** Three failures of the sandbox CDEK from the desk: the desk's own breaker opens for CDEK. */
async function openCdekBreaker(desk: Desk): Promise<void> {
  const failing = { ...MOSCOW_KAZAN, to: { city: 'Казань', postal_code: '999912' } };
  for (let i = 0; i < 3; i++) await desk.call('quote:run', { quoteKey: `fail-${i}`, shipment: failing });
}

test('an expected limit is neutral, not a red error, and is said once', async ({ page }) => {
  await openApp(page);
  await fillPallet(page);
  await quote(page);
  const chip = page.getByTestId('carrier-status-russian-post');
  await expect(chip).toHaveAttribute('data-kind', 'exceeds_limits');
  await expect(chip).toHaveAttribute('data-tone', 'neutral');
  const colours = await chip.evaluate((el) => ({
    chip: getComputedStyle(el).color,
    danger: (() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      document.body.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    })(),
  }));
  expect(colours.chip).not.toBe(colours.danger);
  await expect(chip).not.toContainText('✕');

  const reason = 'больше, чем берёт перевозчик';
  const notRated = page.getByTestId('not-rated');
  // One group for the five carriers over their limits, in one line.
  const group = notRated.locator('[data-kind="exceeds_limits"]');
  await expect(group).toHaveCount(1);
  expect((await group.getAttribute('data-carriers'))?.split(' ').sort()).toEqual([
    '5post',
    'boxberry',
    'dpd',
    'russian-post',
    'yandex',
  ]);
  await expect(group).toContainText(`Почта России`);
  await expect(group).toContainText(`— ${reason}`);
  expect(occurrences(await visibleText(page.getByTestId('results')), reason)).toBe(1);
  // The chip explains it to those who hover, and tells screen readers the reason.
  await expect(chip).toHaveAttribute('title', /больше, чем принимает перевозчик/);
  await expect(chip.locator('.sr-only')).toHaveText(`: ${reason}`);
});

test('an unknown town is one reason for every carrier, and the advice does not ask for the typed index', async ({
  page,
}) => {
  await openApp(page);
  await fillMoscowKazan(page);
  await page.getByTestId('to-city').fill('Нетгородово');
  await quote(page);
  const notRated = page.getByTestId('not-rated');
  const group = notRated.locator('[data-kind="city_not_found"]');
  await expect(group).toHaveCount(1);
  expect((await group.getAttribute('data-carriers'))?.split(' ').sort()).toEqual([
    '5post',
    'boxberry',
    'dellin',
    'pek',
  ]);
  await expect(group).toContainText('город «Нетгородово» не найден (проверьте название)');
  // 420000 is typed: nothing asks for an index.
  await expect(notRated).not.toContainText('индекс');
  expect(occurrences(await visibleText(page.getByTestId('results')), 'не найден')).toBe(1);
});

test.describe('every carrier failed', () => {
  test.use({ deskOptions: { settings: onlyCarriers('cdek') } });

  test('the answer offers «Повторить», which asks again', async ({ page, desk }) => {
    await openApp(page);
    await fillMoscowKazan(page);
    await page.getByTestId('to-postal').fill('999912');
    await quote(page);
    await expect(page.getByTestId('no-rates')).toBeVisible();
    const repeat = page.getByTestId('repeat-quote');
    await expect(repeat).toHaveText('Повторить');
    const before = (await desk.call('history:search', {})).length;
    await repeat.click();
    await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
    await expect.poll(async () => (await desk.call('history:search', {})).length).toBe(before + 1);
  });
});

test.describe('no carrier takes the parcel', () => {
  test.use({ deskOptions: { settings: onlyCarriers('russian-post') } });

  test('no «Повторить» when asking again cannot help (over every limit)', async ({ page }) => {
    await openApp(page);
    await fillMoscowKazan(page, '40');
    await quote(page);
    await expect(page.getByTestId('no-rates')).toBeVisible();
    await expect(page.getByTestId('not-rated')).toContainText('Почта России — больше, чем берёт перевозчик');
    await expect(page.getByTestId('repeat-quote')).toHaveCount(0);
  });
});

test('a carrier skipped by its breaker says until when, and «спросить сейчас» asks it at once', async ({
  page,
  desk,
}) => {
  await openCdekBreaker(desk);
  await openApp(page);
  await fillMoscowKazan(page);
  const askedAt = await page.evaluate(() => Date.now());
  await quote(page);
  const chip = page.getByTestId('carrier-status-cdek');
  await expect(chip).toHaveAttribute('data-kind', 'temporarily_skipped');
  await expect(chip).toHaveAttribute('data-tone', 'paused');
  const until = page.getByTestId('skipped-until-cdek');
  await expect(until).toHaveText(/^до \d\d:\d\d:\d\d$/);
  // The time is within the cool-down (30 s by default) from when the quote was asked, on the page's clock.
  const shown = (await until.textContent())!.slice(3);
  const bounds = await page.evaluate(
    ([from, text]) => {
      const [h, m, s] = text.split(':').map(Number);
      const d = new Date(from);
      d.setHours(h!, m!, s!, 0);
      return { shownMs: d.getTime(), from };
    },
    [askedAt, shown] as const,
  );
  expect(bounds.shownMs).toBeGreaterThanOrEqual(bounds.from - 1_000);
  expect(bounds.shownMs).toBeLessThanOrEqual(bounds.from + 31_000);

  await page.getByTestId('ask-now-cdek').click();
  await expect(chip).toHaveAttribute('data-state', 'answered');
  await expect(page.locator('[data-testid="rate-row"][data-carrier="cdek"]').first()).toBeVisible();
});

test.describe('screenshots', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    test(`a pallet with CDEK skipped, at ${size.width}×${size.height}, RU and EN`, async ({ page, desk }) => {
      await page.setViewportSize(size);
      await openCdekBreaker(desk);
      await openApp(page);
      await fillPallet(page);
      await quote(page);
      await expect(page.getByTestId('skipped-until-cdek')).toBeVisible();
      for (const lang of ['ru', 'en'] as const) {
        if (lang === 'en') {
          await page.getByTestId('lang-en').click();
          await expect(page.getByTestId('not-rated')).toContainText('larger than the carrier takes');
        }
        await page.getByTestId('status-strip').scrollIntoViewIfNeeded();
        await screenshot(page, `quote-unavailable-${size.width}-${lang}`);
        await page.getByTestId('not-rated').scrollIntoViewIfNeeded();
        await screenshot(page, `quote-unavailable-${size.width}-${lang}-reasons`);
      }
    });
  }
});
