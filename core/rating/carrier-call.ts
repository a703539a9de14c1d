// One carrier inside a quote, in the order that costs least: its published limits (no call), the rate cache
// (no call), its circuit breaker (no call while open), then the call itself under its own timer. Whatever
// happens ends as rates or as one failure with a kind; carrier health and the breaker learn the outcome.
import { setMaxListeners } from 'node:events';
import { onCarrierAsksToWait } from '../carriers/http';
import { exceededShipmentLimits } from '../carriers/limits';
import type { CarrierAdapter, CarrierQuoteRequest } from '../carriers/types';
import { z } from 'zod';
import { DaysKind, NotPriced, PriceBreakdown, type CarrierRate } from '../contract/quote-ext';
import { reasonText, type CarrierFailure, type UnavailableKind } from '../contract/unavailable';
import { Rate } from '../contract/v1';
import type { Admission, CircuitBreakers } from './breaker';
import type { HealthBoard } from './health';
import type { RateCache } from './rate-cache';

/** Streamed to the desk while a quote runs (quote:progress). */
/** A carrier's part of a quote as it happens: its rates as the carrier gave them, or finished (core/quote). */
export type QuoteProgress<R extends Rate = CarrierRate> =
  | { carrier: string; state: 'waiting' }
  | { carrier: string; state: 'answered'; rates: R[]; elapsedMs: number }
  | {
      carrier: string;
      state: 'unavailable';
      kind: UnavailableKind;
      detail?: string;
      /** temporarily_skipped: how long until the breaker lets a request through again. */
      retryInMs?: number;
      elapsedMs: number;
    };

export interface CarrierCallContext {
  request: CarrierQuoteRequest;
  /** performance.now() when the quote started: progress reports time since then. */
  startedAt: number;
  /** min(the carrier's timeout, the deadline). */
  limitMs: (adapter: CarrierAdapter) => number;
  health: HealthBoard;
  /** The caller's signal: when it fires the client is gone, and no carrier is blamed for the cut. */
  external: AbortSignal | undefined;
  breakers: { board: CircuitBreakers; cooldownMs: number } | undefined;
  /** `key(adapter)`: where this shipment's answer of that carrier is kept. */
  cache: { store: RateCache; ttlMs: number; key: (adapter: CarrierAdapter) => string } | undefined;
  onProgress: ((p: QuoteProgress) => void) | undefined;
  /** Collects the failures of the whole quote. */
  failures: CarrierFailure[];
  /**
   * Who asked (an account id, or 'desk'): breakers count failures per account first, and carriers with a
   * quota for the whole install (PEK) give each account its fair share of it.
   */
  account: string;
  /** Carriers whose breaker, still cooling down for this asker, lets this request through now (admit's probeNow). */
  probeNow?: ReadonlySet<string>;
}

/**
 * A rate as an adapter may give it: /v1's Rate plus the #21 extras (fee breakdown, options not priced, insured
 * value, kind of days). Checked here like the rate itself; a plain Rate parse would strip the extras.
 */
const AdapterRate = Rate.extend({
  breakdown: PriceBreakdown.partial().optional(),
  options_not_priced: z.array(NotPriced).optional(),
  insured_value_kopecks: z.int().min(0).optional(),
  days_kind: DaysKind.optional(),
}) satisfies z.ZodType<CarrierRate>;

export interface CarrierAnswer {
  rates: CarrierRate[];
  fromCache: boolean;
}

const NO_RATES: CarrierAnswer = { rates: [], fromCache: false };

export async function rateCarrier(adapter: CarrierAdapter, ctx: CarrierCallContext): Promise<CarrierAnswer> {
  const code = adapter.code;
  const elapsed = (): number => Math.round(performance.now() - ctx.startedAt);
  const unavailable = (kind: UnavailableKind, detail?: string, retryInMs?: number | null): CarrierAnswer => {
    const when = retryInMs != null ? { retryInMs: Math.ceil(retryInMs) } : {};
    ctx.failures.push({ carrier: code, kind, ...(detail ? { detail } : {}), ...when });
    ctx.onProgress?.({
      carrier: code,
      state: 'unavailable',
      kind,
      ...(detail ? { detail } : {}),
      ...when,
      elapsedMs: elapsed(),
    });
    return NO_RATES;
  };

  ctx.onProgress?.({ carrier: code, state: 'waiting' });
  // Over every service's published limits: answered here, without a network call (a pallet is never
  // "no service on this route"). Each place against the parcel limits, all places against the shipment's.
  const over = adapter.limits ? exceededShipmentLimits(adapter.limits, ctx.request.places) : [];
  if (over.length > 0) return unavailable('exceeds_limits', over.join('; '));

  const cache = ctx.cache;
  const cacheKey = cache?.key(adapter);
  if (cache && cacheKey !== undefined) {
    // Served even while the breaker is open: within its TTL a stored answer is as good as a fresh one. It
    // says nothing about the carrier now, so neither its health nor its breaker hears of it.
    const cached = cache.store.get(cacheKey, cache.ttlMs);
    if (cached) {
      ctx.onProgress?.({ carrier: code, state: 'answered', rates: cached, elapsedMs: elapsed() });
      return { rates: cached, fromCache: true };
    }
  }

  const breakers = ctx.breakers;
  const account = ctx.account;
  const admission: Admission = breakers
    ? breakers.board.admit(code, account, { probeNow: ctx.probeNow?.has(code) === true })
    : 'call';
  // Until when, so the desk can say it (the /v1 wire keeps its fixed reason text).
  if (admission === 'skip')
    return unavailable('temporarily_skipped', undefined, breakers?.board.view(code, account).retryInMs);

  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('carrier timeout', 'TimeoutError')),
    ctx.limitMs(adapter),
  );
  const signal = controller.signal;
  // One call may run several requests at once on this signal (Russian Post: one per product), each with a
  // listener of undici's and one of the HTTP client's: more than Node's leak warning expects, by design.
  setMaxListeners(64, signal);
  const external = ctx.external;
  const cancel = (): void => controller.abort(external?.reason);
  external?.addEventListener('abort', cancel, { once: true });
  if (external?.aborted) cancel();
  let askedToWaitMs = 0;
  onCarrierAsksToWait(signal, (ms) => {
    askedToWaitMs = Math.max(askedToWaitMs, ms);
  });

  // Health and the breaker learn the outcome here, once per call.
  const settle = (outcome: 'answered' | 'failed' | 'local' | 'neutral', error?: string): void => {
    const board = breakers?.board;
    if (board) {
      if (outcome === 'answered') board.succeeded(code, admission, account);
      else if (outcome === 'failed') {
        if (board.failed(code, admission, breakers.cooldownMs, account)) ctx.health.markUnavailable(code);
      } else board.released(code, admission, account);
      // The carrier's own word on when to call again: it opens the breaker at once (a single 429 is enough)
      // and keeps it open at least that long, whatever our count of failures says.
      if (askedToWaitMs > 0 && board.backOff(code, askedToWaitMs, account)) ctx.health.markUnavailable(code);
    }
    if (outcome === 'answered') ctx.health.recordAnswer(code, elapsed(), new Date());
    else if (outcome === 'failed') ctx.health.recordFailure(code, error ?? 'unknown', new Date());
    else if (outcome === 'local' && (!board || board.view(code, account).state === 'closed')) {
      // As before the breaker, a verdict like "postal code required" reads as an answer for the carrier's
      // status; it may have been reached without any call, so it never makes a skipped carrier look fine.
      ctx.health.recordAnswer(code, elapsed(), new Date());
    }
  };
  const fail = (kind: UnavailableKind, detail?: string): CarrierAnswer => {
    if (external?.aborted) {
      // A carrier cut off because the client left did nothing wrong: neither its health nor its breaker
      // moves, and nobody is listening for progress any more.
      settle('neutral');
      ctx.failures.push({ carrier: code, kind, ...(detail ? { detail } : {}) });
      return NO_RATES;
    }
    if (kind === 'timeout' || kind === 'carrier_error')
      settle('failed', reasonText({ kind, ...(detail ? { detail } : {}) }));
    // The carrier answered, with nothing to offer on this route: as good as a rate for its health. A call not
    // made because the carrier's quota is used up (carrier_busy) says nothing about the carrier: neutral.
    else if (kind === 'no_service') settle('answered');
    else if (kind === 'postal_code_required' || kind === 'city_not_found') settle('local');
    else settle('neutral');
    return unavailable(kind, detail);
  };

  try {
    // A quote whose asker left before this carrier's turn (a client gone while its claim was written, a warm-up
    // stopped while it read its route) asks nobody.
    signal.throwIfAborted();
    const outcome = await raceAbort(adapter.quote(ctx.request, { signal, account }), signal);
    if (!outcome.ok) return fail(outcome.kind, 'detail' in outcome ? outcome.detail : undefined);
    const rates: CarrierRate[] = [];
    for (const r of outcome.rates) {
      const parsed = AdapterRate.safeParse(r);
      if (parsed.success) rates.push(parsed.data);
    }
    if (rates.length === 0) return fail('no_service');
    settle('answered');
    if (cache && cacheKey !== undefined) cache.store.set(cacheKey, rates);
    ctx.onProgress?.({ carrier: code, state: 'answered', rates, elapsedMs: elapsed() });
    return { rates, fromCache: false };
  } catch (err) {
    if (signal.aborted) return fail('timeout');
    return fail('carrier_error', err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', cancel);
  }
}

/** An adapter that ignores its signal must still not hold the request past the deadline. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The adapter's own rejection comes later, with nobody waiting for it: an unhandled rejection ends Node.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
