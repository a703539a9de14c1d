// The circuit breakers of every carrier (docs/carriers.md, "Circuit breaker, back-off and cache"): a carrier that
// failed FAILURES_TO_OPEN times in a row, or asked to be left alone (429/5xx with Retry-After), is not called
// until its cool-down ends; then exactly one request goes through as a probe, and its outcome closes or
// re-opens the breaker. State is in memory only: after a restart every carrier gets a fresh chance, while the
// health board (persisted) still shows what happened before.
//
// Failures count per account first (#16): one account's failures — whatever its shipments trigger, a route
// the carrier hangs on, a flood of timeouts — open that carrier for that account alone. The carrier is taken
// away from everyone only on evidence no single account can forge: failures from at least two accounts in a
// row, a failed probe, or the carrier's own Retry-After. So a free account cannot switch carriers off for all
// the others, while a real outage still opens the breaker after one more failure from anyone else.
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
  /** Whose request it was (an account id; '' when the caller did not say). */
  account: string;
  event: 'call' | 'probe' | 'skip' | 'success' | 'failure' | 'neutral' | 'backoff';
  /** The admission an outcome belongs to (success, failure, neutral). */
  admission?: Exclude<Admission, 'skip'>;
  /** backoff: how long the carrier asked to be left alone, after the cap. */
  delayMs?: number;
  /** probe: let through before the cool-down ended, because the asker said «ask now» (admit's probeNow). */
  forced?: true;
  /** The state after the event, as this account meets the carrier (the stricter of the two breakers). */
  state: BreakerState;
  /** The carrier's breaker for everyone, after the event. */
  global: BreakerState;
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
  /** Open because the carrier itself asked to be left alone (Retry-After): no «ask now» goes past that. */
  carrierAsked?: boolean;
}

/** The carrier's breaker for everyone: besides its state, who failed since the last answer, in order. */
interface GlobalEntry extends Entry {
  failing: string[];
}

/** Who a call is for when the caller does not say (tests, in-process stubs): one account of its own. */
export const UNATTRIBUTED = '';

let trace: Channel | undefined;

export class CircuitBreakers {
  private readonly global = new Map<string, GlobalEntry>();
  private readonly accounts = new Map<string, Entry>();

  /** `now`: monotonic milliseconds (the service's clock), so tests move time instead of sleeping. */
  constructor(private readonly now: () => number) {}

  /**
   * Whether `account`'s request may call the carrier now: skipped while the carrier's breaker or that
   * account's own is cooling down or has its probe running; 'probe' is the one request let through after a
   * cool-down (of either or both: its outcome settles every breaker it was the probe of).
   *
   * `probeNow` (the desk's «спросить сейчас», #17): a breaker still cooling down after failures lets this one
   * request through as its probe, as if the cool-down had ended; a failed probe opens it for a new cool-down
   * as usual. Never past a running probe, and never past the carrier's own Retry-After. It touches only the
   * breakers this request meets (the carrier's and the asker's own), so no other account's breaker moves.
   */
  admit(carrier: string, account: string = UNATTRIBUTED, options: { probeNow?: boolean } = {}): Admission {
    const now = this.now();
    const g = this.globalEntry(carrier);
    const a = this.accountEntry(carrier, account);
    const forcible = (e: Entry): boolean => options.probeNow === true && !e.carrierAsked;
    const cooling = (e: Entry): boolean => e.state === 'open' && now < e.openUntilMs && !forcible(e);
    const due = (e: Entry): boolean => e.state === 'open' || (e.state === 'half_open' && !e.probing);
    let decision: Admission;
    if (
      cooling(g) ||
      cooling(a) ||
      (g.state === 'half_open' && g.probing) ||
      (a.state === 'half_open' && a.probing)
    )
      decision = 'skip';
    else if (due(g) || due(a)) {
      const early = [g, a].some((e) => e.state === 'open' && now < e.openUntilMs);
      for (const e of [g, a]) {
        if (due(e)) Object.assign(e, { state: 'half_open', probing: true });
      }
      decision = 'probe';
      this.emit(now, carrier, account, decision, early ? { forced: true } : {});
      return decision;
    } else decision = 'call';
    this.emit(now, carrier, account, decision);
    return decision;
  }

  /**
   * The carrier answered `account` (a rate, or a clean "no service"): the carrier works, so its breaker closes
   * for everyone, and so does the account's own. Another account's own breaker stays as it is: it is about what
   * that account's shipments do.
   */
  succeeded(carrier: string, admission: Exclude<Admission, 'skip'>, account: string = UNATTRIBUTED): void {
    Object.assign(this.globalEntry(carrier), {
      state: 'closed',
      failures: 0,
      probing: false,
      failing: [],
      carrierAsked: false,
    });
    Object.assign(this.accountEntry(carrier, account), { state: 'closed', failures: 0, probing: false });
    this.emit(this.now(), carrier, account, 'success', { admission });
  }

  /**
   * A timeout or carrier error for `account`. Returns true when this failure opened a breaker (the carrier's, or
   * the account's own). A failure of a call admitted before a breaker opened changes nothing: the cool-down runs
   * from the failure that opened it.
   */
  failed(
    carrier: string,
    admission: Exclude<Admission, 'skip'>,
    cooldownMs: number,
    account: string = UNATTRIBUTED,
  ): boolean {
    const now = this.now();
    const g = this.globalEntry(carrier);
    const a = this.accountEntry(carrier, account);
    let opened = false;
    if (admission === 'probe' && (this.probing(g) || this.probing(a))) {
      // The probe failed: every breaker it was the probe of opens for a new cool-down.
      for (const e of [g, a]) {
        if (this.probing(e)) {
          this.open(e, now + cooldownMs);
          opened = true;
        }
      }
    } else {
      if (a.state === 'closed' && ++a.failures >= FAILURES_TO_OPEN) {
        this.open(a, now + cooldownMs);
        opened = true;
      }
      if (g.state === 'closed') {
        g.failing.push(account);
        g.failures = g.failing.length;
        if (g.failing.length >= FAILURES_TO_OPEN && new Set(g.failing).size >= 2) {
          this.open(g, now + cooldownMs);
          opened = true;
        }
      }
    }
    this.emit(now, carrier, account, 'failure', { admission });
    return opened;
  }

  /**
   * An outcome that says nothing about the carrier (the client went away, the answer was decided without a
   * call, the carrier's quota was used up): a probe gives its turn to the next request, nothing else changes.
   */
  released(carrier: string, admission: Exclude<Admission, 'skip'>, account: string = UNATTRIBUTED): void {
    if (admission === 'probe') {
      for (const e of [this.globalEntry(carrier), this.accountEntry(carrier, account)]) {
        if (this.probing(e)) e.probing = false;
      }
    }
    this.emit(this.now(), carrier, account, 'neutral', { admission });
  }

  /**
   * The carrier asked to be left alone for `delayMs` (Retry-After on a 429 or 5xx): open for everyone now,
   * until then or until the cool-down already running ends, whichever is later. Returns true when this opened
   * the carrier for `account` (it was not open for it before). The carrier's own word needs no second witness.
   */
  backOff(carrier: string, delayMs: number, account: string = UNATTRIBUTED): boolean {
    const now = this.now();
    const g = this.globalEntry(carrier);
    const capped = Math.min(Math.max(0, delayMs), MAX_BACKOFF_MS);
    // Opened as this account meets the carrier: its own breaker may have been open already.
    const opened = effectiveState(g, this.accounts.get(accountKey(carrier, account))) !== 'open';
    g.openUntilMs = g.state === 'open' ? Math.max(g.openUntilMs, now + capped) : now + capped;
    g.state = 'open';
    g.probing = false;
    g.carrierAsked = true;
    this.emit(now, carrier, account, 'backoff', { delayMs: capped });
    return opened;
  }

  /** The carrier as `account` meets it: open when its breaker or the account's own is. */
  view(carrier: string, account: string = UNATTRIBUTED): BreakerView {
    const g = this.global.get(carrier);
    const a = this.accounts.get(accountKey(carrier, account));
    const open = [g, a].filter((e): e is Entry => e !== undefined && e.state === 'open');
    return {
      state: effectiveState(g, a),
      consecutiveFailures: a?.failures ?? 0,
      retryInMs: open.length > 0 ? Math.max(0, ...open.map((e) => e.openUntilMs - this.now())) : null,
    };
  }

  /** Whether the carrier's breaker for everyone is open or probing (GET /v1/carriers, the Carriers screen). */
  openForEveryone(carrier: string): boolean {
    const g = this.global.get(carrier);
    return g !== undefined && g.state !== 'closed';
  }

  private probing(e: Entry): boolean {
    return e.state === 'half_open' && e.probing;
  }

  private open(e: Entry, untilMs: number): void {
    e.state = 'open';
    e.openUntilMs = untilMs;
    e.probing = false;
    e.carrierAsked = false;
  }

  private globalEntry(carrier: string): GlobalEntry {
    let e = this.global.get(carrier);
    if (!e) {
      e = { state: 'closed', failures: 0, openUntilMs: 0, probing: false, failing: [] };
      this.global.set(carrier, e);
    }
    return e;
  }

  private accountEntry(carrier: string, account: string): Entry {
    const key = accountKey(carrier, account);
    let e = this.accounts.get(key);
    if (!e) {
      e = { state: 'closed', failures: 0, openUntilMs: 0, probing: false };
      this.accounts.set(key, e);
    }
    return e;
  }

  /** `atMs`: the instant the decision used, so a replay of the trace sees exactly what the breaker saw. */
  private emit(
    atMs: number,
    carrier: string,
    account: string,
    event: BreakerEvent['event'],
    extra: Pick<BreakerEvent, 'admission' | 'delayMs' | 'forced'> = {},
  ): void {
    // Created on first use, not at import: core modules have no import-time effects (docs/architecture.md).
    trace ??= channel(BREAKER_CHANNEL);
    if (!trace.hasSubscribers) return;
    const message: BreakerEvent = {
      carrier,
      account,
      event,
      ...extra,
      state: effectiveState(this.global.get(carrier), this.accounts.get(accountKey(carrier, account))),
      global: this.global.get(carrier)?.state ?? 'closed',
      atMs,
    };
    trace.publish(message);
  }
}

function accountKey(carrier: string, account: string): string {
  return `${carrier}\u0000${account}`;
}

/** Open when either is, half-open when either probes, closed only when both are. */
function effectiveState(g: Entry | undefined, a: Entry | undefined): BreakerState {
  const states = [g?.state ?? 'closed', a?.state ?? 'closed'];
  if (states.includes('open')) return 'open';
  if (states.includes('half_open')) return 'half_open';
  return 'closed';
}
