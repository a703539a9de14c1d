// One circuit breaker per carrier code (docs/carriers.md, "Circuit breaker, back-off and cache"). A carrier
// that failed FAILURES_TO_OPEN times in a row, or asked to be left alone (429/5xx with Retry-After), is not
// called until its cool-down ends; then exactly one request goes through as a probe, and its outcome closes
// or re-opens the breaker. State is in memory only: after a restart every carrier gets a fresh chance, while
// the health board (persisted) still shows what happened before.
import { channel, type Channel } from 'node:diagnostics_channel';
import { MAX_RETRY_AFTER_MS } from '../carriers/http';
import { FAILURES_TO_UNAVAILABLE } from './health';

/** The same three failures that make a carrier `unavailable` on GET /v1/carriers open its breaker. */
export const FAILURES_TO_OPEN = FAILURES_TO_UNAVAILABLE;

/** The longest back-off a Retry-After can ask for, as the HTTP client caps it. */
export const MAX_BACKOFF_MS = MAX_RETRY_AFTER_MS;

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * What admit() decided. The caller hands it back with the outcome, so that the probe's verdict is told apart
 * from a late answer of a call admitted before the breaker opened.
 */
export type Admission = 'call' | 'probe' | 'skip';

export interface BreakerView {
  state: BreakerState;
  /** Consecutive failures counted while closed. */
  consecutiveFailures: number;
  /** While open: how long until the next request may probe (0 once it may). */
  retryInMs: number | null;
}

/** One decision or outcome, in the order they happened: what the carrier chaos suite replays against the rules. */
export interface BreakerEvent {
  carrier: string;
  event: 'call' | 'probe' | 'skip' | 'success' | 'failure' | 'neutral' | 'backoff';
  /** The admission an outcome belongs to (success, failure, neutral). */
  admission?: Exclude<Admission, 'skip'>;
  /** backoff: how long the carrier asked to be left alone, after the cap. */
  delayMs?: number;
  /** The state after the event. */
  state: BreakerState;
  atMs: number;
}

/**
 * Published on this diagnostics channel (node:diagnostics_channel) when anyone subscribes, so tests and
 * operators can watch every decision without a handle on the service; unobserved it costs one property read.
 */
export const BREAKER_CHANNEL = 'ratedesk:carrier-breaker';

interface Entry {
  state: BreakerState;
  failures: number;
  openUntilMs: number;
  probing: boolean;
}

let trace: Channel | undefined;

export class CircuitBreakers {
  private readonly entries = new Map<string, Entry>();

  /** `now`: monotonic milliseconds (the service's clock), so tests move time instead of sleeping. */
  constructor(private readonly now: () => number) {}

  /** Whether a request may call the carrier now; 'probe' is the one request let through after a cool-down. */
  admit(carrier: string): Admission {
    const now = this.now();
    const e = this.entries.get(carrier);
    let decision: Admission;
    if (e === undefined || e.state === 'closed') decision = 'call';
    else if (e.state === 'open' && now < e.openUntilMs) decision = 'skip';
    else if (e.state === 'half_open' && e.probing) decision = 'skip';
    else {
      e.state = 'half_open';
      e.probing = true;
      decision = 'probe';
    }
    this.emit(now, carrier, decision, e);
    return decision;
  }

  /** The carrier answered (a rate, or a clean "no service"): whatever the state, it is closed again. */
  succeeded(carrier: string, admission: Exclude<Admission, 'skip'>): void {
    const e = this.entry(carrier);
    e.state = 'closed';
    e.failures = 0;
    e.probing = false;
    this.emit(this.now(), carrier, 'success', e, { admission });
  }

  /**
   * A timeout or carrier error. Returns true when this failure opened the breaker. A failure of a call admitted
   * before the breaker opened changes nothing: the cool-down runs from the failure that opened it.
   */
  failed(carrier: string, admission: Exclude<Admission, 'skip'>, cooldownMs: number): boolean {
    const now = this.now();
    const e = this.entry(carrier);
    let opened = false;
    if (admission === 'probe' && e.state === 'half_open') {
      this.open(e, now + cooldownMs);
      opened = true;
    } else if (e.state === 'closed') {
      e.failures += 1;
      if (e.failures >= FAILURES_TO_OPEN) {
        this.open(e, now + cooldownMs);
        opened = true;
      }
    }
    this.emit(now, carrier, 'failure', e, { admission });
    return opened;
  }

  /**
   * An outcome that says nothing about the carrier (the client went away, or the answer was decided without
   * a call): a probe gives its turn to the next request, nothing else changes.
   */
  released(carrier: string, admission: Exclude<Admission, 'skip'>): void {
    const e = this.entries.get(carrier);
    if (e && admission === 'probe' && e.state === 'half_open') e.probing = false;
    if (e) this.emit(this.now(), carrier, 'neutral', e, { admission });
  }

  /**
   * The carrier asked to be left alone for `delayMs` (Retry-After on a 429 or 5xx): open now, until then or
   * until the cool-down already running ends, whichever is later. Returns true when this opened the breaker.
   */
  backOff(carrier: string, delayMs: number): boolean {
    const now = this.now();
    const e = this.entry(carrier);
    const capped = Math.min(Math.max(0, delayMs), MAX_BACKOFF_MS);
    const opened = e.state !== 'open';
    e.openUntilMs = e.state === 'open' ? Math.max(e.openUntilMs, now + capped) : now + capped;
    e.state = 'open';
    e.probing = false;
    this.emit(now, carrier, 'backoff', e, { delayMs: capped });
    return opened;
  }

  view(carrier: string): BreakerView {
    const e = this.entries.get(carrier);
    if (!e) return { state: 'closed', consecutiveFailures: 0, retryInMs: null };
    return {
      state: e.state,
      consecutiveFailures: e.failures,
      retryInMs: e.state === 'open' ? Math.max(0, e.openUntilMs - this.now()) : null,
    };
  }

  private open(e: Entry, untilMs: number): void {
    e.state = 'open';
    e.openUntilMs = untilMs;
    e.probing = false;
  }

  private entry(carrier: string): Entry {
    let e = this.entries.get(carrier);
    if (!e) {
      e = { state: 'closed', failures: 0, openUntilMs: 0, probing: false };
      this.entries.set(carrier, e);
    }
    return e;
  }

  /** `atMs`: the instant the decision used, so a replay of the trace sees exactly what the breaker saw. */
  private emit(
    atMs: number,
    carrier: string,
    event: BreakerEvent['event'],
    e: Entry | undefined,
    extra: Pick<BreakerEvent, 'admission' | 'delayMs'> = {},
  ): void {
    // Created on first use, not at import: core modules have no import-time effects (docs/architecture.md).
    trace ??= channel(BREAKER_CHANNEL);
    if (!trace.hasSubscribers) return;
    const message: BreakerEvent = { carrier, event, ...extra, state: e?.state ?? 'closed', atMs };
    trace.publish(message);
  }
}
