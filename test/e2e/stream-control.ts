// A quote whose carriers answer when the test says so. The sandbox simulators share one latency, so they
// answer together; a test of the streaming order needs one carrier first and another later. The page's
// quote:run is held (the binding is wrapped before the app starts), the test pushes quote:progress events
// through the real event path (desk.emit) and then lets the call return. The rates themselves come from a
// real quote of the same core, so the rows are what the carriers really offer.
import type { Page } from '@playwright/test';
import type { DeskQuoteResult, QuoteProgress } from '../../core/desk/contract';
import type { Desk } from './fixtures';

interface HeldWindow {
  __ratedeskInvoke: (channel: string, input: unknown) => Promise<unknown>;
  __heldQuoteKey?: string;
  __releaseQuote?: (result: unknown) => void;
}

/** Call before openApp: from then on every quote:run of the page waits for release(). */
export async function holdQuotes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as HeldWindow;
    // The binding is installed before this script; wrap it once it exists.
    const real = w.__ratedeskInvoke;
    w.__ratedeskInvoke = (channel: string, input: unknown): Promise<unknown> => {
      if (channel !== 'quote:run') return real(channel, input);
      const { quoteKey } = input as { quoteKey: string };
      w.__heldQuoteKey = quoteKey;
      return new Promise((resolve) => {
        w.__releaseQuote = (result) => resolve({ ok: true, value: result });
      });
    };
  });
}

export interface HeldQuote {
  key: string;
  /** Pushes one carrier's progress as the core would (the test then waits for what it expects to see). */
  progress(p: QuoteProgress): void;
  /** Lets the page's quote:run return this result. */
  release(result: DeskQuoteResult): Promise<void>;
}

export async function heldQuote(page: Page, desk: Desk): Promise<HeldQuote> {
  await page.waitForFunction(() => (window as unknown as HeldWindow).__heldQuoteKey !== undefined);
  const key = await page.evaluate(() => (window as unknown as HeldWindow).__heldQuoteKey!);
  return {
    key,
    progress(p) {
      desk.emit('quote:progress', { quoteKey: key, progress: p });
    },
    async release(result) {
      await page.evaluate((r) => (window as unknown as HeldWindow).__releaseQuote?.(r), result);
    },
  };
}
