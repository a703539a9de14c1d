// The circuit breaker's states and transitions (docs/carriers.md, "Circuit breaker, back-off and cache"),
// on a clock the test moves: no test sleeps through a cool-down.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BREAKER_CHANNEL,
  CircuitBreakers,
  FAILURES_TO_OPEN,
  MAX_BACKOFF_MS,
  type BreakerEvent,
} from '../../../../core/rating/breaker';

const COOLDOWN = 30_000;

function board(): { b: CircuitBreakers; advance(ms: number): void } {
  let now = 1_000;
  return { b: new CircuitBreakers(() => now), advance: (ms) => (now += ms) };
}

/** Fails the carrier `n` times through ordinary calls. */
function failTimes(b: CircuitBreakers, code: string, n: number): void {
  for (let i = 0; i < n; i++) {
    expect(b.admit(code)).toBe('call');
    b.failed(code, 'call', COOLDOWN);
  }
}

describe('circuit breaker', () => {
  it(`opens after ${FAILURES_TO_OPEN} consecutive failures and skips until the cool-down ends`, () => {
    const { b, advance } = board();
    failTimes(b, 'cdek', FAILURES_TO_OPEN - 1);
    expect(b.view('cdek')).toEqual({ state: 'closed', consecutiveFailures: 2, retryInMs: null });
    expect(b.admit('cdek')).toBe('call');
    expect(b.failed('cdek', 'call', COOLDOWN)).toBe(true);
    expect(b.view('cdek').state).toBe('open');
    expect(b.admit('cdek')).toBe('skip');
    advance(COOLDOWN - 1);
    expect(b.admit('cdek')).toBe('skip');
    expect(b.view('cdek').retryInMs).toBe(1);
    // Other carriers are not affected.
    expect(b.admit('russian-post')).toBe('call');
  });

  it('a success in between resets the count: failures must be consecutive', () => {
    const { b } = board();
    failTimes(b, 'cdek', 2);
    expect(b.admit('cdek')).toBe('call');
    b.succeeded('cdek', 'call');
    failTimes(b, 'cdek', 2);
    expect(b.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 2 });
  });

  it('after the cool-down exactly one request probes; the rest are skipped while it runs', () => {
    const { b, advance } = board();
    failTimes(b, 'cdek', FAILURES_TO_OPEN);
    advance(COOLDOWN);
    expect(b.admit('cdek')).toBe('probe');
    expect(b.view('cdek').state).toBe('half_open');
    for (let i = 0; i < 5; i++) expect(b.admit('cdek')).toBe('skip');
  });

  it('a successful probe closes the breaker', () => {
    const { b, advance } = board();
    failTimes(b, 'cdek', FAILURES_TO_OPEN);
    advance(COOLDOWN);
    expect(b.admit('cdek')).toBe('probe');
    b.succeeded('cdek', 'probe');
    expect(b.view('cdek')).toEqual({ state: 'closed', consecutiveFailures: 0, retryInMs: null });
    expect(b.admit('cdek')).toBe('call');
    expect(b.admit('cdek')).toBe('call');
  });

  it('a failed probe re-opens it for a whole new cool-down', () => {
    const { b, advance } = board();
    failTimes(b, 'cdek', FAILURES_TO_OPEN);
    advance(COOLDOWN + 5_000);
    expect(b.admit('cdek')).toBe('probe');
    expect(b.failed('cdek', 'probe', COOLDOWN)).toBe(true);
    expect(b.view('cdek')).toMatchObject({ state: 'open', retryInMs: COOLDOWN });
    expect(b.admit('cdek')).toBe('skip');
    advance(COOLDOWN);
    expect(b.admit('cdek')).toBe('probe');
  });

  it('a probe that ends with nothing to say (client gone) hands the probe to the next request', () => {
    const { b, advance } = board();
    failTimes(b, 'cdek', FAILURES_TO_OPEN);
    advance(COOLDOWN);
    expect(b.admit('cdek')).toBe('probe');
    b.released('cdek', 'probe');
    expect(b.view('cdek').state).toBe('half_open');
    expect(b.admit('cdek')).toBe('probe');
  });

  it('calls admitted before it opened: a late failure does not extend the cool-down, a late answer closes it', () => {
    const { b, advance } = board();
    for (let i = 0; i < 5; i++) expect(b.admit('cdek')).toBe('call');
    for (let i = 0; i < FAILURES_TO_OPEN; i++) b.failed('cdek', 'call', COOLDOWN);
    advance(10_000);
    expect(b.failed('cdek', 'call', COOLDOWN)).toBe(false);
    expect(b.view('cdek')).toMatchObject({ state: 'open', retryInMs: COOLDOWN - 10_000 });
    b.succeeded('cdek', 'call');
    expect(b.view('cdek').state).toBe('closed');
  });

  it('neutral outcomes of ordinary calls change nothing', () => {
    const { b } = board();
    failTimes(b, 'cdek', 2);
    expect(b.admit('cdek')).toBe('call');
    b.released('cdek', 'call');
    expect(b.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 2 });
  });

  describe('back-off (Retry-After)', () => {
    it('opens at once for as long as the carrier asked, then probes like any cool-down', () => {
      const { b, advance } = board();
      expect(b.admit('cdek')).toBe('call');
      b.failed('cdek', 'call', COOLDOWN);
      expect(b.backOff('cdek', 2_000)).toBe(true);
      expect(b.view('cdek')).toMatchObject({ state: 'open', retryInMs: 2_000 });
      advance(1_999);
      expect(b.admit('cdek')).toBe('skip');
      advance(1);
      expect(b.admit('cdek')).toBe('probe');
      b.succeeded('cdek', 'probe');
      expect(b.view('cdek').state).toBe('closed');
    });

    it('never shortens a cool-down already running, and extends it when the carrier asks for longer', () => {
      const { b } = board();
      failTimes(b, 'cdek', FAILURES_TO_OPEN);
      expect(b.backOff('cdek', 1_000)).toBe(false);
      expect(b.view('cdek').retryInMs).toBe(COOLDOWN);
      b.backOff('cdek', 120_000);
      expect(b.view('cdek').retryInMs).toBe(120_000);
    });

    it('a probe answered with Retry-After re-opens for the longer of the cool-down and Retry-After', () => {
      const { b, advance } = board();
      failTimes(b, 'cdek', FAILURES_TO_OPEN);
      advance(COOLDOWN);
      expect(b.admit('cdek')).toBe('probe');
      b.failed('cdek', 'probe', COOLDOWN);
      b.backOff('cdek', 90_000);
      expect(b.view('cdek')).toMatchObject({ state: 'open', retryInMs: 90_000 });
    });

    it(`is capped at ${MAX_BACKOFF_MS / 60_000} minutes`, () => {
      const { b } = board();
      b.backOff('cdek', 24 * 3600_000);
      expect(b.view('cdek').retryInMs).toBe(MAX_BACKOFF_MS);
    });
  });

  describe('trace', () => {
    const seen: BreakerEvent[] = [];
    const listener = (m: unknown): void => void seen.push(m as BreakerEvent);
    afterEach(() => {
      unsubscribe(BREAKER_CHANNEL, listener);
      seen.length = 0;
    });

    it('publishes every decision and outcome in order, with the state after it', () => {
      subscribe(BREAKER_CHANNEL, listener);
      const { b, advance } = board();
      failTimes(b, 'cdek', FAILURES_TO_OPEN);
      b.admit('cdek');
      advance(COOLDOWN);
      b.admit('cdek');
      b.succeeded('cdek', 'probe');
      expect(seen.map((e) => `${e.event}${e.admission ? `(${e.admission})` : ''}→${e.state}`)).toEqual([
        'call→closed',
        'failure(call)→closed',
        'call→closed',
        'failure(call)→closed',
        'call→closed',
        'failure(call)→open',
        'skip→open',
        'probe→half_open',
        'success(probe)→closed',
      ]);
    });
  });

  describe('per account (#16): one account cannot take a carrier away from the others', () => {
    const fail = (b: CircuitBreakers, account: string, n = 1): void => {
      for (let i = 0; i < n; i++) {
        expect(b.admit('cdek', account)).toBe('call');
        b.failed('cdek', 'call', COOLDOWN, account);
      }
    };

    it('one account’s failures open the carrier for that account alone', () => {
      const { b } = board();
      fail(b, 'attacker', FAILURES_TO_OPEN);
      expect(b.admit('cdek', 'attacker')).toBe('skip');
      expect(b.view('cdek', 'attacker').state).toBe('open');
      expect(b.admit('cdek', 'victim')).toBe('call');
      expect(b.view('cdek', 'victim')).toEqual({ state: 'closed', consecutiveFailures: 0, retryInMs: null });
      expect(b.openForEveryone('cdek')).toBe(false);
    });

    it('failures from two accounts in a row open it for everyone', () => {
      const { b } = board();
      fail(b, 'a', 2);
      fail(b, 'b', 1);
      expect(b.openForEveryone('cdek')).toBe(true);
      expect(b.admit('cdek', 'c')).toBe('skip');
    });

    it('an answer in between is evidence the carrier works: the count across accounts starts again', () => {
      const { b } = board();
      fail(b, 'attacker', 2);
      expect(b.admit('cdek', 'victim')).toBe('call');
      b.succeeded('cdek', 'call', 'victim');
      fail(b, 'attacker', 1); // the attacker's own third failure: its own breaker only
      fail(b, 'other', 1);
      expect(b.openForEveryone('cdek')).toBe(false);
      expect(b.admit('cdek', 'attacker')).toBe('skip');
    });

    it('another account’s answer does not reopen the carrier for an account that broke it for itself', () => {
      const { b } = board();
      fail(b, 'attacker', FAILURES_TO_OPEN);
      expect(b.admit('cdek', 'victim')).toBe('call');
      b.succeeded('cdek', 'call', 'victim');
      expect(b.admit('cdek', 'attacker')).toBe('skip');
    });

    it('a locked account probes for itself after its cool-down; its failed probe locks only itself again', () => {
      const { b, advance } = board();
      fail(b, 'attacker', FAILURES_TO_OPEN);
      advance(COOLDOWN);
      expect(b.admit('cdek', 'attacker')).toBe('probe');
      expect(b.admit('cdek', 'attacker')).toBe('skip'); // one probe at a time
      expect(b.admit('cdek', 'victim')).toBe('call');
      b.failed('cdek', 'probe', COOLDOWN, 'attacker');
      expect(b.view('cdek', 'attacker').retryInMs).toBe(COOLDOWN);
      expect(b.openForEveryone('cdek')).toBe(false);
    });

    it('open for everyone, the probe is taken by an account that is not locked out itself', () => {
      const { b, advance } = board();
      fail(b, 'attacker', FAILURES_TO_OPEN);
      fail(b, 'victim', 1);
      expect(b.openForEveryone('cdek')).toBe(true);
      advance(COOLDOWN);
      // The attacker's own lock began earlier and ran out too: both may probe now; whoever asks first does.
      expect(b.admit('cdek', 'victim')).toBe('probe');
      expect(b.admit('cdek', 'attacker')).toBe('skip');
      b.succeeded('cdek', 'probe', 'victim');
      expect(b.openForEveryone('cdek')).toBe(false);
    });

    it('the carrier’s own Retry-After opens it for everyone, whoever’s call heard it', () => {
      const { b } = board();
      expect(b.backOff('cdek', 5_000, 'attacker')).toBe(true);
      expect(b.admit('cdek', 'victim')).toBe('skip');
    });
  });

  describe('«спросить сейчас» (#17): probeNow lets one request through a breaker still cooling down', () => {
    const fail = (b: CircuitBreakers, account: string, n: number): void => {
      for (let i = 0; i < n; i++) {
        expect(b.admit('cdek', account)).toBe('call');
        b.failed('cdek', 'call', COOLDOWN, account);
      }
    };

    it('the asker’s own open breaker lets exactly this request probe; the next one is skipped again', () => {
      const { b } = board();
      fail(b, 'desk', FAILURES_TO_OPEN);
      expect(b.admit('cdek', 'desk')).toBe('skip');
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('probe');
      expect(b.admit('cdek', 'desk')).toBe('skip');
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('skip'); // one probe at a time
      b.succeeded('cdek', 'probe', 'desk');
      expect(b.view('cdek', 'desk')).toEqual({ state: 'closed', consecutiveFailures: 0, retryInMs: null });
    });

    it('a failed early probe opens the breaker for a new cool-down from now', () => {
      const { b, advance } = board();
      fail(b, 'desk', FAILURES_TO_OPEN);
      advance(10_000);
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('probe');
      b.failed('cdek', 'probe', COOLDOWN, 'desk');
      expect(b.view('cdek', 'desk')).toMatchObject({ state: 'open', retryInMs: COOLDOWN });
    });

    it('never moves another account’s breaker', () => {
      const { b } = board();
      fail(b, 'other', FAILURES_TO_OPEN);
      // A third account's answer in between, so the carrier stays open for those two alone.
      expect(b.admit('cdek', 'third')).toBe('call');
      b.succeeded('cdek', 'call', 'third');
      fail(b, 'desk', FAILURES_TO_OPEN);
      expect(b.openForEveryone('cdek')).toBe(false);
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('probe');
      b.succeeded('cdek', 'probe', 'desk');
      expect(b.admit('cdek', 'other')).toBe('skip');
      expect(b.view('cdek', 'other').state).toBe('open');
    });

    it('a closed breaker is an ordinary call, not a probe', () => {
      const { b } = board();
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('call');
    });

    it('never before a Retry-After the carrier itself gave', () => {
      const { b, advance } = board();
      b.backOff('cdek', 60_000, 'desk');
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('skip');
      advance(60_000);
      expect(b.admit('cdek', 'desk', { probeNow: true })).toBe('probe');
    });

    it('is told apart in the trace (forced), so a replay of the rules knows why it came early', () => {
      const { b } = board();
      const seen: BreakerEvent[] = [];
      const listen = (m: unknown): void => void seen.push(m as BreakerEvent);
      subscribe(BREAKER_CHANNEL, listen);
      try {
        fail(b, 'desk', FAILURES_TO_OPEN);
        b.admit('cdek', 'desk', { probeNow: true });
      } finally {
        unsubscribe(BREAKER_CHANNEL, listen);
      }
      expect(seen.at(-1)).toMatchObject({ event: 'probe', forced: true, account: 'desk' });
    });
  });
});
