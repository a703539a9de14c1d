// PEK's published request rate: 100 requests a minute for the whole API (the official docs as quoted in the
// aerogram client, verified-2026.md §5.5). A sliding window per origin and login (the limit is the account's),
// shared by every adapter in the process like the HTTP client's pools. Policy: a request over the limit waits
// for a free slot when one frees within PEK_MAX_WAIT_MS (and within the carrier's own timeout: the wait
// honours the call's AbortSignal), otherwise it fails at once without calling PEK, as a carrier_error saying
// how long is left. Waiting longer than that would only turn a clear answer into a timeout.

export const PEK_REQUESTS_PER_MINUTE = 100;
/** The longest a request waits for a slot before failing fast. */
export const PEK_MAX_WAIT_MS = 2_000;

export class PekRateLimited extends Error {}

export interface RateLimiter {
  /** Resolves when the request may go; throws PekRateLimited (fail fast) or the signal's reason. */
  acquire(signal: AbortSignal): Promise<void>;
}

export interface WindowOptions {
  limit: number;
  windowMs: number;
  maxWaitMs: number;
  nowMs?: () => number;
}

export function slidingWindowLimiter(options: WindowOptions): RateLimiter {
  const now = options.nowMs ?? (() => performance.now());
  const sent: number[] = [];
  return {
    async acquire(signal) {
      for (;;) {
        signal.throwIfAborted();
        const t = now();
        while (sent.length > 0 && sent[0]! <= t - options.windowMs) sent.shift();
        if (sent.length < options.limit) {
          sent.push(t);
          return;
        }
        const waitMs = sent[0]! + options.windowMs - t;
        if (waitMs > options.maxWaitMs) {
          throw new PekRateLimited(
            `not called: PEK's limit of ${options.limit} requests a minute is used up, ${Math.ceil(waitMs / 1000)} s left`,
          );
        }
        await sleep(waitMs, signal);
      }
    },
  };
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

/** The process-wide limiter of one PEK account on one host. */
export function pekLimiterFor(origin: string, login: string): RateLimiter {
  const key = `${origin} ${login}`;
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
