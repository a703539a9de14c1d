// The first quote after start (#17 item 3): a clerk opens the desk, types a route and presses Enter; the rows
// and the carrier chips must come as fast as for every later quote. The service warms itself up after start
// (core/platform/warm-up.ts); before that, the first quote took 0.4 s to its first row and 1–2.5 s to its last
// carrier against 0.05–0.15 s for the next ones. Timed in the page (Enter → first chip with an answer, → the
// run done), relative to warm quotes of the same page in the same test, with room for a loaded machine.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, type Desk } from './fixtures';
import { fillMoscowKazan } from './quote-helpers';

interface Timing {
  firstRowMs: number;
  doneMs: number;
}

/** In the page: from the Enter keydown to the first carrier chip that is no longer waiting, and to "done". */
function installTimer(page: Page): Promise<void> {
  return page.evaluate(() => {
    type Probe = { t0: number; first: number; done: number };
    const w = window as unknown as { __firstQuote?: Probe };
    const probe: Probe = { t0: 0, first: 0, done: 0 };
    w.__firstQuote = probe;
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter' && probe.t0 === 0) probe.t0 = performance.now();
      },
      { capture: true },
    );
    const check = (): void => {
      if (probe.t0 === 0) return;
      const now = performance.now();
      if (
        probe.first === 0 &&
        document.querySelector('[data-testid^="carrier-status-"]:not([data-state="waiting"])')
      )
        probe.first = now - probe.t0;
      if (probe.done === 0 && document.querySelector('[data-testid="results"][data-phase="done"]'))
        probe.done = now - probe.t0;
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state', 'data-phase'],
    });
  });
}

async function timedQuote(page: Page, weight: string): Promise<Timing> {
  await page.getByTestId('weight').fill(weight);
  await installTimer(page);
  await page.getByTestId('weight').press('Enter');
  await expect
    .poll(() =>
      page.evaluate(() => (window as unknown as { __firstQuote: { done: number } }).__firstQuote.done),
    )
    .toBeGreaterThan(0);
  return page.evaluate(() => {
    const p = (window as unknown as { __firstQuote: { first: number; done: number } }).__firstQuote;
    return { firstRowMs: p.first, doneMs: p.done };
  });
}

/** Half the cold start the warm-up removed (2.1–2.6 s): what the first quote may take over the later ones. */
const COLD_SLACK_MS = 1_000;

/** The warm-up has settled, and the clerk took at least as long to type as a form takes (fair to a cold start). */
async function clerkTyped(desk: Desk, page: Page, since: number): Promise<void> {
  await desk.service.warmedUp;
  await page.waitForTimeout(Math.max(0, 1500 - (Date.now() - since)));
}

test('the first quote after start is as fast as the later ones', async ({ page, desk }) => {
  const opened = Date.now();
  await openApp(page);
  await fillMoscowKazan(page);
  await clerkTyped(desk, page, opened);

  const first = await timedQuote(page, '1,2');
  const warm = [await timedQuote(page, '1,3'), await timedQuote(page, '1,4'), await timedQuote(page, '1,5')];
  const median = (pick: (t: Timing) => number): number => warm.map(pick).sort((a, b) => a - b)[1]!;
  const warmFirst = median((t) => t.firstRowMs);
  const warmDone = median((t) => t.doneMs);
  const note = `first ${JSON.stringify(first)}; warm ${JSON.stringify(warm)}`;
  console.log(`FIRST QUOTE ${note}`);
  test.info().annotations.push({ type: 'perf', description: note });
  // Without the warm-up the first quote took 2.1–2.6 s longer than the later ones; a second of slack still
  // catches that, and stays clear of a busy machine, where CI saw warm quotes spread from 0.19 to 0.72 s and
  // a first one 0.77 s over their median (500 ms of slack missed by 205 ms).
  expect(first.firstRowMs, note).toBeLessThanOrEqual(Math.max(2 * warmFirst, warmFirst + COLD_SLACK_MS));
  expect(first.doneMs, note).toBeLessThanOrEqual(Math.max(2 * warmDone, warmDone + COLD_SLACK_MS));
});

for (const lang of ['ru', 'en'] as const) {
  test.describe(`in ${lang === 'ru' ? 'Russian' : 'English'}`, () => {
    test.use({ deskOptions: { settings: { 'ui.language': lang } } });

    test('every chip of the first quote reads under a second (1280×800, then 1024×640)', async ({
      page,
      desk,
    }) => {
      for (const [width, height] of [
        [1280, 800],
        [1024, 640],
      ] as const) {
        await page.setViewportSize({ width, height });
        await openApp(page);
        await fillMoscowKazan(page);
        await desk.service.warmedUp;
        await timedQuote(page, width === 1280 ? '2,1' : '2,2');
        for (const chip of await page.locator('[data-testid^="carrier-status-"]').all()) {
          await expect(chip).toHaveAttribute('data-state', 'answered');
          // "<0,1 с" … "0,9 с" (they read 2.1–2.6 s before the warm-up).
          await expect(chip.locator('.status-time')).toHaveText(/^(<0[,.]1|0[,.]\d)\u00a0[сs]$/);
        }
        await screenshot(page, `first-quote-${lang}-${width}`);
      }
    });
  });
}
