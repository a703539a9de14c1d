// The kept result survives a restart (#17 item 1) whatever the carriers answered: before, a result with one
// carrier of a kind the renderer did not list (city_not_found, exceeds_limits, temporarily_skipped) was
// deleted from storage at start, so the clerk came back to an empty screen after every pallet. And the
// balance screen's copies of core rules are gone (threshold choices, a new account's balance).
import type { Page } from '@playwright/test';
import { DEFAULT_BALANCE, THRESHOLD_VALUES } from '../../core/contract/low-balance';
import type { UnavailableKind } from '../../core/desk/contract';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { fillMoscowKazan, MOSCOW_KAZAN, quote } from './quote-helpers';

interface Chip {
  code: string;
  state: string | null;
  kind: string | null;
}

async function chips(page: Page): Promise<Chip[]> {
  return page.locator('[data-testid^="carrier-status-"]').evaluateAll((els) =>
    els.map((e) => ({
      code: (e.getAttribute('data-testid') ?? '').replace('carrier-status-', ''),
      state: e.getAttribute('data-state'),
      kind: e.getAttribute('data-kind'),
    })),
  );
}

async function rowKeys(page: Page): Promise<string[]> {
  return page.getByTestId('rate-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-key') ?? ''));
}

const SCENARIOS: {
  kind: UnavailableKind;
  /** A carrier that answers this kind. */
  carrier: string;
  title: string;
  prepare?: (desk: Desk) => Promise<void>;
  fill: (page: Page) => Promise<void>;
}[] = [
  {
    kind: 'city_not_found',
    carrier: 'pek',
    title: 'a town no directory knows (with its postal code, so the others still quote)',
    fill: async (page) => {
      await fillMoscowKazan(page);
      await page.getByTestId('to-city').fill('Нетгородово');
    },
  },
  {
    kind: 'exceeds_limits',
    carrier: 'russian-post',
    title: 'a pallet (300 kg, 120×100×100 cm)',
    fill: async (page) => {
      await fillMoscowKazan(page, '300');
      await page.getByTestId('length').fill('120');
      await page.getByTestId('width').fill('100');
      await page.getByTestId('height').fill('100');
    },
  },
  {
    kind: 'temporarily_skipped',
    carrier: 'cdek',
    title: "CDEK's breaker open after three failures in a row",
    prepare: async (desk) => {
      // The sandbox's CDEK error trigger, three times from the desk: the desk's own breaker opens for CDEK.
      const failing = { ...MOSCOW_KAZAN, to: { city: 'Казань', postal_code: '999912' } };
      for (let i = 0; i < 3; i++) await desk.call('quote:run', { quoteKey: `fail-${i}`, shipment: failing });
    },
    fill: (page) => fillMoscowKazan(page),
  },
];

for (const s of SCENARIOS) {
  test(`a result with a carrier answering ${s.kind} survives a reload: ${s.title}`, async ({
    page,
    desk,
  }) => {
    await s.prepare?.(desk);
    await openApp(page);
    await s.fill(page);
    await quote(page);
    const chip = page.getByTestId(`carrier-status-${s.carrier}`);
    await expect(chip).toHaveAttribute('data-kind', s.kind);
    const before = { chips: await chips(page), rows: await rowKeys(page) };
    expect(before.rows.length).toBeGreaterThan(0);

    await page.reload();
    const results = page.getByTestId('results');
    await expect(results).toHaveAttribute('data-phase', 'done');
    await expect(page.getByTestId('quote-empty')).toHaveCount(0);
    await expect(chip).toHaveAttribute('data-kind', s.kind);
    expect(await chips(page)).toEqual(before.chips);
    expect(await rowKeys(page)).toEqual(before.rows);
    // Still kept for the next start, not deleted by this one.
    expect(await page.evaluate(() => localStorage.getItem('ratedesk.quote.last'))).not.toBeNull();
  });
}

// The other renderer copies of core rules (#17 item 1) now come from core/contract: the threshold choices are
// THRESHOLD_VALUES in the core's order, and a new account's balance field starts at DEFAULT_BALANCE.
test.describe('the balance screen follows the core’s rules', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 640 },
  ]) {
    test(`threshold choices and a new account's balance, at ${size.width}×${size.height}, RU and EN`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      await openApp(page, 'balance');
      const choices = page.getByTestId('threshold-default').locator('input[type="radio"]');
      expect(await choices.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
        ...THRESHOLD_VALUES,
      ]);
      for (const lang of ['ru', 'en'] as const) {
        await page.getByTestId(`lang-${lang}`).click();
        await screenshot(page, `balance-${size.width}-${lang}`);
        await page.getByTestId('account-create').click();
        await expect(page.getByTestId('account-create-balance')).toHaveValue(String(DEFAULT_BALANCE));
        await screenshot(page, `balance-create-${size.width}-${lang}`);
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('account-create-dialog')).toHaveCount(0);
      }
    });
  }
});
