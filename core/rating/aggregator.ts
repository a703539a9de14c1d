// Fan-out to the requested carriers under one deadline: whatever arrived in time is returned, every other
// queried carrier is listed with a reason. A carrier fault never escapes as an exception. Each carrier runs
// on its own (carrier-call.ts: limits, cache, circuit breaker, its own timer), so one that hangs costs only
// its own timeout.
import type { CarrierAdapter } from '../carriers/types';
import { reasonText, type CarrierFailure, type UnavailableKind } from '../contract/unavailable';
import { fromV1, placesOf, type CarrierRate, type QuoteShipment } from '../contract/quote-ext';
import type { Shipment, Unavailable } from '../contract/v1';
import { moscowDate } from '../util/moscow-date';
import { fingerprint } from '../util/fingerprint';
import { UNATTRIBUTED, type CircuitBreakers } from './breaker';
import { rateCarrier, type CarrierCallContext, type QuoteProgress } from './carrier-call';
import type { HealthBoard } from './health';
import type { RateCache } from './rate-cache';

export type { QuoteProgress, UnavailableKind };
/** A carrier that gave no rate, as a kind (+ detail); the /v1 wire words it with reasonText. */
export type CarrierUnavailable = CarrierFailure;

export interface RatingResult {
  /** As the carriers gave them (core/quote/finish.ts adds dates and the customer's price). */
  rates: CarrierRate[];
  unavailable: Unavailable[];
  failures: CarrierUnavailable[];
  /** Carriers whose rates came from the rate cache (no call was made to them). */
  fromCache: string[];
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
  /**
   * Circuit breakers by carrier code and the cool-down once one opens (rating.breaker_cooldown_ms).
   * Without them every carrier is called every time.
   */
  breakers?: { board: CircuitBreakers; cooldownMs: number };
  /**
   * The rate cache and its TTL (rating.cache_ttl_ms, only when above 0). `scope` keeps sandbox answers and
   * live ones apart.
   */
  cache?: { store: RateCache; ttlMs: number; scope: 'sandbox' | 'live'; sharing?: CacheSharing };
  /**
   * Who asks: an account id, or 'desk' for the desktop app. Breakers count failures per account first, carriers
   * with a quota for the whole install give each its fair share, and the rate cache keeps each account's
   * answers to itself unless `cache.sharing` is 'shared'.
   */
  account?: string;
  /**
   * Carriers whose breaker, still cooling down for this asker, lets this quote through now as its probe (the
   * desk's «спросить сейчас»; breaker.ts admit's probeNow).
   */
  probeNow?: readonly string[];
  /** Today in Moscow (YYYY-MM-DD): the ship date when the shipment names none. From the service's clock. */
  today?: string;
}

/**
 * Whose answers a cached rate may serve (setting rating.cache_sharing): only the account that asked (the
 * default: a cache hit answers in milliseconds, so a shared cache would tell one account what another asked
 * in the last minutes), or every account of this install (one company, one trust domain).
 */
export type CacheSharing = 'account' | 'shared';

/** The desktop app's own quotes, as an asker beside the accounts of /v1 (account ids are numbers). */
export const DESK_ACCOUNT = 'desk';

export interface CarrierSet {
  /** Enabled adapters by code. */
  adapters: ReadonlyMap<string, CarrierAdapter>;
  /** Known carriers switched off in settings. */
  disabled: ReadonlySet<string>;
}

export { reasonText };

export async function quoteAll(
  asked: Shipment | QuoteShipment,
  carriers: CarrierSet,
  health: HealthBoard,
  options: QuoteOptions,
): Promise<RatingResult> {
  const shipment = 'cod_kopecks' in asked ? asked : fromV1(asked);
  const { targets, failures } = planCarriers(shipment.carriers ?? null, carriers);
  if (targets.length === 0) return finish([], failures, [], { nothingQueried: true, cancelled: false });
  const external = options.signal;
  const cache = options.cache;
  // The shipment as the idempotency fingerprint reads it, less the carrier list: one carrier's answer does
  // not depend on which other carriers were asked.
  const shipmentKey = cache ? fingerprint({ ...shipment, carriers: undefined }) : '';

  const account = options.account ?? UNATTRIBUTED;
  const places = placesOf(shipment);
  const ctx: CarrierCallContext = {
    account,
    request: {
      from: { city: shipment.from.city, postalCode: shipment.from.postal_code ?? null },
      to: { city: shipment.to.city, postalCode: shipment.to.postal_code ?? null },
      parcel: places[0]!,
      places,
      declaredValueKopecks: shipment.declared_value_kopecks,
      codKopecks: shipment.cod_kopecks,
      shipDate: shipment.ship_date ?? options.today ?? moscowDate(new Date()),
    },
    startedAt: performance.now(),
    // Every carrier starts now, so its own timeout and the overall deadline collapse into one timer each
    // (AbortSignal.any + two AbortSignal.timeout per carrier cost ~6 % of a rates call's CPU).
    limitMs: (adapter) => Math.min(adapter.timeoutMs ?? options.carrierTimeoutMs, options.deadlineMs),
    health,
    external,
    breakers: options.breakers,
    cache: cache
      ? {
          store: cache.store,
          ttlMs: cache.ttlMs,
          key: (adapter) =>
            cache.store.key(
              adapter,
              cache.sharing === 'shared' ? cache.scope : `${cache.scope}\u0000${account}`,
              shipmentKey,
            ),
        }
      : undefined,
    onProgress: options.onProgress,
    failures,
    ...(options.probeNow?.length ? { probeNow: new Set(options.probeNow.map((c) => c.toLowerCase())) } : {}),
  };

  const answers = await Promise.all(targets.map((adapter) => rateCarrier(adapter, ctx)));
  const fromCache = targets.filter((_, i) => answers[i]!.fromCache).map((a) => a.code);
  return finish(
    answers.flatMap((a) => a.rates),
    failures,
    fromCache,
    { nothingQueried: false, cancelled: external?.aborted ?? false },
  );
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
  rates: CarrierRate[],
  failures: CarrierUnavailable[],
  fromCache: string[],
  flags: { nothingQueried: boolean; cancelled: boolean },
): RatingResult {
  rates.sort((a, b) => a.price_kopecks - b.price_kopecks || a.service_code.localeCompare(b.service_code));
  failures.sort((a, b) => a.carrier.localeCompare(b.carrier));
  return {
    rates,
    failures,
    unavailable: failures.map((f) => ({ carrier: f.carrier, reason: reasonText(f) })),
    fromCache,
    ...flags,
  };
}
