// PEK's published request rate: 100 requests a minute for the whole API (the official docs as quoted in the
// aerogram client, verified-2026.md §5.5). A sliding window per origin and login (the limit is the account's),
// shared by every adapter in the process like the HTTP client's pools. Policy: a request over the limit waits
// for a free slot when one frees within PEK_MAX_WAIT_MS (and within the carrier's own timeout: the wait
// honours the call's AbortSignal), otherwise it is not sent and reads "carrier busy", which is no failure of
// PEK's. Waiting longer than that would only turn a clear answer into a timeout.
//
// Fair shares (#16): the minute is the whole install's, so one asker (a /v1 account, the desk) may hold at
// most its share of it: the limit divided among the askers seen in the window, and never more than half while
// it is alone, so whoever comes next always finds room. An account that floods PEK with routes it does not
// serve uses up its own share only; everyone else's quotes keep PEK.
import { decideSlot, fairShare, type SlotDecision, type WindowSlot } from '../../limits/sliding-window';
import type { CarrierCoordinationStore } from '../../store/port';

export const PEK_REQUESTS_PER_MINUTE = 100;
/** The longest a request waits for a slot before failing fast. */
export const PEK_MAX_WAIT_MS = 2_000;

export class PekRateLimited extends Error {}

export { fairShare };

export interface RateLimiter {
  /**
   * Resolves when `asker`'s request may go; throws PekRateLimited (the minute, or the asker's share of it, is
   * used up for longer than the wait allows) or the signal's reason.
   */
  acquire(signal: AbortSignal, asker?: string): Promise<void>;
}

export interface WindowOptions {
  limit: number;
  windowMs: number;
  maxWaitMs: number;
  nowMs?: () => number;
}

export function slidingWindowLimiter(options: WindowOptions): RateLimiter {
  const now = options.nowMs ?? (() => performance.now());
  const sent: WindowSlot[] = [];
  return {
    async acquire(signal, asker = '') {
      for (;;) {
        signal.throwIfAborted();
        const t = now();
        while (sent.length > 0 && sent[0]!.at <= t - options.windowMs) sent.shift();
        const decision = decideSlot(sent, asker, options, t);
        if (decision.ok) {
          sent.push({ at: t, asker });
          return;
        }
        await waitOrRefuse(decision, options, signal);
      }
    },
  };
}

/**
 * The window kept where every instance of a company server sees it (the store's carrier coordination): the
 * same decision, on the database's clock, so three instances together send PEK at most its 100 a minute.
 */
export function sharedWindowLimiter(
  windows: Pick<CarrierCoordinationStore, 'takeSlot'>,
  window: string,
  options: Omit<WindowOptions, 'nowMs'>,
): RateLimiter {
  return {
    async acquire(signal, asker = '') {
      for (;;) {
        signal.throwIfAborted();
        const decision = await windows.takeSlot(window, asker, options);
        if (decision.ok) return;
        await waitOrRefuse(decision, options, signal);
      }
    },
  };
}

async function waitOrRefuse(
  decision: Extract<SlotDecision, { ok: false }>,
  options: Pick<WindowOptions, 'limit' | 'maxWaitMs'>,
  signal: AbortSignal,
): Promise<void> {
  if (decision.waitMs > options.maxWaitMs) {
    const left = Math.ceil(decision.waitMs / 1000);
    throw new PekRateLimited(
      decision.ownFull
        ? `not called: this account's share of PEK's ${options.limit} requests a minute (${decision.share}) is used up, ${left} s left`
        : `not called: PEK's limit of ${options.limit} requests a minute is used up, ${left} s left`,
    );
  }
  await sleep(Math.max(0, decision.waitMs), signal);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * For the built-in simulator (sandbox mode, endpoint = simulator): it is not PEK, and the benchmarks and load
 * suites run far more than 100 quotes a minute against it. The limiter itself is tested with its own window.
 */
export const NO_RATE_LIMIT: RateLimiter = { acquire: async (signal) => signal.throwIfAborted() };

const shared = new Map<string, RateLimiter>();

/**
 * The limiter of one PEK account on one host: the company's (the store's carrier coordination, shared by every
 * instance) where one is given, else this process's.
 */
export function pekLimiterFor(
  origin: string,
  login: string,
  coordination?: Pick<CarrierCoordinationStore, 'takeSlot'>,
): RateLimiter {
  const key = `${origin} ${login}`;
  if (coordination)
    return sharedWindowLimiter(coordination, `pek ${key}`, {
      limit: PEK_REQUESTS_PER_MINUTE,
      windowMs: 60_000,
      maxWaitMs: PEK_MAX_WAIT_MS,
    });
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = slidingWindowLimiter({
      limit: PEK_REQUESTS_PER_MINUTE,
      windowMs: 60_000,
      maxWaitMs: PEK_MAX_WAIT_MS,
    });
    shared.set(key, limiter);
  }
  return limiter;
}
