// Enter → first rate row on screen, sandbox carriers at zero latency, measured by the page itself (User
// Timing marks set by the quote screen). Reported, not asserted: the figure depends on the machine, and
// here it includes the test transport (a Playwright binding and page.evaluate per event batch), which is
// slower than Electron's IPC.
import { expect, openApp, test } from './fixtures';

test('perf: Enter → first rate row (reported)', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('from-city').fill('Москва');
  await page.getByTestId('from-postal').fill('101000');
  await page.getByTestId('to-city').fill('Казань');
  await page.getByTestId('to-postal').fill('420000');
  await page.getByTestId('weight').fill('1,2');
  await page.getByTestId('box-preset').selectOption({ label: 'M 30×20×10' });

  const samples: number[] = [];
  for (let i = 0; i < 8; i++) {
    await page.getByTestId('weight').press('Enter');
    await expect(page.getByTestId('results')).toHaveAttribute('data-phase', 'done');
    samples.push(
      await page.evaluate(
        () => performance.getEntriesByName('ratedesk:first-rate', 'measure')[0]?.duration ?? NaN,
      ),
    );
  }
  const [cold, ...warm] = samples;
  const sorted = [...warm].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const line =
    `PERF enter→first rate row: cold ${cold!.toFixed(1)} ms; warm median ${median.toFixed(1)} ms ` +
    `(min ${sorted[0]!.toFixed(1)}, max ${sorted[sorted.length - 1]!.toFixed(1)}, n=${warm.length})`;
  console.log(line);
  test.info().annotations.push({ type: 'perf', description: line });
  expect(samples.every(Number.isFinite)).toBe(true);
});
