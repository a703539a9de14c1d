// Fan-out to the requested carriers under one deadline: whatever arrived in time is returned, every other
// queried carrier is listed with a reason. A carrier fault never escapes as an exception.
import { exceededLimits } from '../carriers/limits';
import type { CarrierAdapter } from '../carriers/types';
import { reasonText, type CarrierFailure, type UnavailableKind } from '../contract/unavailable';
import { Rate, type Shipment, type Unavailable } from '../contract/v1';
import type { HealthBoard } from './health';

export type { UnavailableKind };
/** A carrier that gave no rate, as a kind (+ detail); the /v1 wire words it with reasonText. */
export type CarrierUnavailable = CarrierFailure;

/** Streamed to the desk while a quote runs (quote:progress). */
export type QuoteProgress =
  | { carrier: string; state: 'waiting' }
  | { carrier: string; state: 'answered'; rates: Rate[]; elapsedMs: number }
  | { carrier: string; state: 'unavailable'; kind: UnavailableKind; detail?: string; elapsedMs: number };

export interface RatingResult {
  rates: Rate[];
  unavailable: Unavailable[];
  failures: CarrierUnavailable[];
  /**
   * No carrier could even be asked (`carriers: []`, or only unknown or disabled codes): retrying cannot help,
   * so /v1 answers 422 instead of 503.
   */
  nothingQueried: boolean;
  /** The caller's signal ended the quote (the client went away): the result is incomplete and unused. */
  cancelled: boolean;
}

export interface QuoteOptions {
  deadlineMs: number;
  carrierTimeoutMs: number;
  onProgress?: (p: QuoteProgress) => void;
  /** Aborts every carrier call at once (the HTTP client disconnected); no carrier is blamed for it. */
  signal?: AbortSignal;
}

export interface CarrierSet {
  /** Enabled adapters by code. */
  adapters: ReadonlyMap<string, CarrierAdapter>;
  /** Known carriers switched off in settings. */
  disabled: ReadonlySet<string>;
}

export { reasonText };

export async function quoteAll(
  shipment: Shipment,
  carriers: CarrierSet,
  health: HealthBoard,
  options: QuoteOptions,
): Promise<RatingResult> {
  const { targets, failures } = planCarriers(shipment.carriers ?? null, carriers);
  if (targets.length === 0) return finish([], failures, { nothingQueried: true, cancelled: false });
  const external = options.signal;

  const started = performance.now();
  // Every carrier starts now, so its own timeout and the overall deadline collapse into one timer each
  // (AbortSignal.any + two AbortSignal.timeout per carrier cost ~6 % of a rates call's CPU).
  const limitOf = (adapter: CarrierAdapter): number =>
    Math.min(adapter.timeoutMs ?? options.carrierTimeoutMs, options.deadlineMs);
  const request = {
    from: { city: shipment.from.city, postalCode: shipment.from.postal_code ?? null },
    to: { city: shipment.to.city, postalCode: shipment.to.postal_code ?? null },
    parcel: shipment.parcel,
    declaredValueKopecks: shipment.declared_value_kopecks,
  };

  const perCarrier = targets.map(async (adapter): Promise<Rate[]> => {
    options.onProgress?.({ carrier: adapter.code, state: 'waiting' });
    // Over every service's published limits: answered here, without a network call (a pallet is never
    // "no service on this route").
    const over = adapter.limits ? exceededLimits(adapter.limits, request.parcel) : [];
    if (over.length > 0) {
      const u: CarrierUnavailable = {
        carrier: adapter.code,
        kind: 'exceeds_limits',
        detail: over.join('; '),
      };
      failures.push(u);
      options.onProgress?.({
        carrier: adapter.code,
        state: 'unavailable',
        kind: u.kind,
        detail: u.detail!,
        elapsedMs: Math.round(performance.now() - started),
      });
      return [];
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('carrier timeout', 'TimeoutError')),
      limitOf(adapter),
    );
    const signal = controller.signal;
    const cancel = (): void => controller.abort(external?.reason);
    external?.addEventListener('abort', cancel, { once: true });
    if (external?.aborted) cancel();
    const fail = (kind: UnavailableKind, detail?: string): Rate[] => {
      const u: CarrierUnavailable = { carrier: adapter.code, kind, ...(detail ? { detail } : {}) };
      failures.push(u);
      // A carrier cut off because the client left did nothing wrong: its health is not touched.
      if (external?.aborted) return [];
      const elapsedMs = Math.round(performance.now() - started);
      if (kind === 'timeout' || kind === 'carrier_error')
        health.recordFailure(adapter.code, reasonText(u), new Date());
      else if (kind === 'no_service' || kind === 'postal_code_required' || kind === 'city_not_found') {
        health.recordAnswer(adapter.code, elapsedMs, new Date());
      }
      options.onProgress?.({
        carrier: adapter.code,
        state: 'unavailable',
        kind,
        ...(detail ? { detail } : {}),
        elapsedMs,
      });
      return [];
    };
    try {
      const outcome = await raceAbort(adapter.quote(request, { signal }), signal);
      if (!outcome.ok) return fail(outcome.kind, 'detail' in outcome ? outcome.detail : undefined);
      const rates: Rate[] = [];
      for (const r of outcome.rates) {
        const parsed = Rate.safeParse(r);
        if (parsed.success) rates.push(parsed.data);
      }
      if (rates.length === 0) return fail('no_service');
      const elapsedMs = Math.round(performance.now() - started);
      health.recordAnswer(adapter.code, elapsedMs, new Date());
      options.onProgress?.({ carrier: adapter.code, state: 'answered', rates, elapsedMs });
      return rates;
    } catch (err) {
      if (signal.aborted) return fail('timeout');
      return fail('carrier_error', err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      external?.removeEventListener('abort', cancel);
    }
  });

  const rates = (await Promise.all(perCarrier)).flat();
  return finish(rates, failures, { nothingQueried: false, cancelled: external?.aborted ?? false });
}

/**
 * Which adapters a request asks for. Codes match case-insensitively («CDEK» is cdek) and once each; an unknown
 * code and a known one switched off are failures, never silently dropped.
 */
export function planCarriers(
  requested: readonly string[] | null,
  carriers: CarrierSet,
): { targets: CarrierAdapter[]; failures: CarrierUnavailable[] } {
  const failures: CarrierUnavailable[] = [];
  const targets: CarrierAdapter[] = [];
  if (requested === null) {
    // No restriction: every enabled carrier. Switched-off ones are named only when nothing is left to ask.
    targets.push(...carriers.adapters.values());
    if (targets.length === 0)
      for (const code of carriers.disabled) failures.push({ carrier: code, kind: 'disabled' });
    return { targets, failures };
  }
  const seen = new Set<string>();
  for (const asked of requested) {
    const code = asked.toLowerCase();
    if (seen.has(code)) continue;
    seen.add(code);
    const adapter = carriers.adapters.get(code);
    if (adapter) targets.push(adapter);
    else if (carriers.disabled.has(code)) failures.push({ carrier: code, kind: 'disabled' });
    else failures.push({ carrier: asked, kind: 'unknown_carrier' });
  }
  return { targets, failures };
}

function finish(
  rates: Rate[],
  failures: CarrierUnavailable[],
  flags: { nothingQueried: boolean; cancelled: boolean },
): RatingResult {
  rates.sort((a, b) => a.price_kopecks - b.price_kopecks || a.service_code.localeCompare(b.service_code));
  failures.sort((a, b) => a.carrier.localeCompare(b.carrier));
  return {
    rates,
    failures,
    unavailable: failures.map((f) => ({ carrier: f.carrier, reason: reasonText(f) })),
    ...flags,
  };
}

/** An adapter that ignores its signal must still not hold the request past the deadline. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
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
