// Suite of #8, ledger model: fast-check command sequences (quote, replay, mismatch, balance, revoke, new key,
// top-up, limit change, clock moves, restart, failed-auth floods, concurrent duplicates) run against the real
// core over real HTTP on 127.0.0.1 and a real SQLite file, and against the in-memory model of
// test/helpers/ledger-model.ts. Every answer is compared with the model (status, error code, body,
// Idempotent-Replayed, X-Request-Id, RateLimit headers, Retry-After), and after every command the committed
// file is too: balances, tiers, overrides, ledger rows (balance = Σ ledger, one 'rates' row per charged 200),
// idempotency records, revocations. A failure prints its seed, fast-check's shrunk command list and the
// transcript of the failing run; RATEDESK_SEED=<seed> replays it (adding RATEDESK_FC_PATH=<path> and
// RATEDESK_FC_REPLAY_PATH=<replayPath> from the report jumps straight to the shrunk case).
// Both stores run it: a data folder (SQLite), and a company database (PostgreSQL, a fresh one per run, with the
// model's clock as the database clock: test/helpers/ledger-model-postgres.ts), where the buckets are shared
// rows that a restart keeps, and holds and claims are rows that must be gone once a request has answered.
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clearLimits, setLimits, topup } from '../../core/operations';
import { createKey, revokeKey } from '../../core/operations';
import { generateKey } from '../../core/keys/format';
import {
  ACCOUNT_NAMES,
  DAY_MS,
  PRICED_VARIANTS,
  SPELLINGS,
  VARIANTS,
  Harness,
  VirtualClock,
  authFailure,
  effectiveLimits,
  emptyStats,
  expectedResult,
  expectedUnavailableWhenDown,
  freshRecord,
  gate,
  initialModel,
  ratesOutcome,
  restartModel,
  shipmentBody,
  type Gate,
  type LedgerModel,
  type RecordModel,
  type Reply,
  type Spelling,
  type StoreKind,
  type TakeModel,
  type Variant,
} from '../helpers/ledger-model';
import { scale, suiteSeed } from '../helpers/soak';

const RUNS = scale(500, 5000);
/** A run on PostgreSQL costs a database of its own and a few times the statements: fewer of them in CI. */
const PG_RUNS = scale(30, 2000);
const MAX_COMMANDS = scale(60, 120);
const SEED = suiteSeed();
/** fast-check's `path` and `replayPath` of a reported failure: replay that case alone, without searching. */
const PATH = process.env.RATEDESK_FC_PATH;
const REPLAY_PATH = process.env.RATEDESK_FC_REPLAY_PATH;

type Cmd = fc.AsyncCommand<LedgerModel, Harness>;
type Via = 'desk' | 'cli';

// ---------------------------------------------------------------------------------------------------------
// Checking one answer

function fail(h: Harness, what: string): never {
  const tail = h.transcript.slice(-40).map((l) => `    ${l}`);
  throw new Error(`${what}\n  transcript of this run (last ${tail.length} commands):\n${tail.join('\n')}`);
}

function same<T>(h: Harness, what: string, actual: T, expected: T): void {
  if (!isDeepStrictEqual(actual, expected)) {
    fail(h, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function header(r: Reply, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function json(h: Harness, r: Reply): Record<string, unknown> {
  try {
    return JSON.parse(r.text) as Record<string, unknown>;
  } catch {
    return fail(h, `answer ${r.status} is not JSON: ${r.text.slice(0, 200)}`);
  }
}

function errorCode(h: Harness, r: Reply): string | undefined {
  const e = json(h, r).error as { code?: string; request_id?: string } | undefined;
  return e?.code;
}

const REQUEST_ID = /^req_[0-9A-Za-z]{20}$/;

/** Status, code and the headers the gate decides; returns a one-word summary for the transcript. */
function checkGate(h: Harness, label: string, g: Gate, r: Reply): string | null {
  switch (g.kind) {
    case 'revoked':
      same(h, `${label}: status`, [r.status, errorCode(h, r)], [401, 'api_key_revoked']);
      same(h, `${label}: WWW-Authenticate`, header(r, 'www-authenticate') !== undefined, true);
      return '401 revoked';
    case 'auth-brake':
      same(
        h,
        `${label}: status (failed-auth brake)`,
        [r.status, errorCode(h, r)],
        [429, 'rate_limit_exceeded'],
      );
      return '429 brake';
    case 'limited':
      same(h, `${label}: status`, [r.status, errorCode(h, r)], [429, 'rate_limit_exceeded']);
      checkRetryAfter(h, label, g.take, r);
      checkRateHeaders(h, label, g.take, r);
      return `429 retry ${g.take.retryAfter}`;
    case 'pass':
      if (r.status === 401 || r.status === 429) {
        fail(
          h,
          `${label}: expected the request to pass authentication and the limiter, got ${r.status} ${errorCode(h, r)}`,
        );
      }
      checkRateHeaders(h, label, g.take, r);
      return null;
  }
}

/**
 * A defect this suite found (see the regression test at the end of this file): core/limits/token-bucket.ts
 * decided with an epsilon (tokens ≥ 1 − 1e-9) but reported floor/ceil of the raw float, so after some refills
 * RateLimit said r=0 while a token was left, and t and Retry-After came out one second high. Fixed by snapping
 * drift once before deciding; false makes any such one-ulp value fail the property (true would accept and
 * count them, as it did while the defect was open).
 */
const TOLERATE_RATELIMIT_FLOAT_DRIFT = false;

function acceptedStates(take: TakeModel): string[] {
  return TOLERATE_RATELIMIT_FLOAT_DRIFT ? take.driftStates : [take.state];
}

function checkRateHeaders(h: Harness, label: string, take: TakeModel, r: Reply): void {
  same(h, `${label}: RateLimit-Policy`, header(r, 'ratelimit-policy'), take.policy);
  const state = header(r, 'ratelimit') ?? '-';
  if (state === take.state) return;
  if (!acceptedStates(take).includes(state)) return same(h, `${label}: RateLimit`, state, take.state);
  const [, left, full] = /r=(\d+);t=(\d+)/.exec(state)!;
  if (!take.state.includes(`r=${left};`)) h.stats.drift.r++;
  if (!take.state.endsWith(`t=${full}`)) h.stats.drift.t++;
}

function checkRetryAfter(h: Harness, label: string, take: TakeModel, r: Reply): void {
  const retry = Number(header(r, 'retry-after'));
  if (retry === take.retryAfter) return;
  if (TOLERATE_RATELIMIT_FLOAT_DRIFT && take.driftRetryAfters.includes(retry)) h.stats.drift.retryAfter++;
  else same(h, `${label}: Retry-After`, header(r, 'retry-after'), String(take.retryAfter));
}

function checkError(h: Harness, label: string, r: Reply, status: number, code: string): void {
  same(h, `${label}: status`, [r.status, errorCode(h, r)], [status, code]);
  const body = json(h, r) as { error: { request_id: string } };
  same(h, `${label}: X-Request-Id = error.request_id`, header(r, 'x-request-id'), body.error.request_id);
  same(h, `${label}: Idempotent-Replayed`, header(r, 'idempotent-replayed'), undefined);
}

// ---------------------------------------------------------------------------------------------------------
// One POST /v1/rates, predicted and checked

interface RatesCall {
  keyId: number;
  idem: string | null;
  /** What goes on the wire: the bare key, or the same key as an sf-string ("k1"). */
  idemHeader: string | null;
  variant: Variant;
  spelling: Spelling;
}

async function rates(m: LedgerModel, h: Harness, label: string, call: RatesCall): Promise<string> {
  const r = await h.postRates(
    h.secrets[call.keyId]!,
    shipmentBody(call.variant, call.spelling),
    call.idemHeader,
  );
  const g = gate(m, call.keyId);
  const early = checkGate(h, label, g, r);
  if (early !== null || g.kind !== 'pass') return early ?? '';
  return settleRates(m, h, label, call, g.account, ratesOutcome(m, g.account, call.idem, call.variant), r);
}

function settleRates(
  m: LedgerModel,
  h: Harness,
  label: string,
  call: RatesCall,
  account: LedgerModel['accounts'][number],
  outcome: ReturnType<typeof ratesOutcome>,
  r: Reply,
): string {
  switch (outcome.kind) {
    case 'error': {
      checkError(h, label, r, outcome.status, outcome.code);
      if (outcome.code === 'rates_unavailable') {
        same(h, `${label}: unavailable[]`, json(h, r).unavailable, expectedUnavailableWhenDown());
        same(h, `${label}: Retry-After 5–7`, /^[5-7]$/.test(header(r, 'retry-after') ?? ''), true);
      }
      if (outcome.code === 'no_queryable_carrier') {
        same(h, `${label}: unavailable[]`, json(h, r).unavailable, [
          { carrier: 'nosuch', reason: 'unknown carrier' },
        ]);
        same(h, `${label}: no Retry-After`, header(r, 'retry-after'), undefined);
      }
      return `${outcome.status} ${outcome.code}`;
    }
    case 'replay': {
      same(h, `${label}: replay status`, r.status, 200);
      same(h, `${label}: replay body byte for byte`, r.text, outcome.record.body);
      same(h, `${label}: replay X-Request-Id`, header(r, 'x-request-id'), outcome.record.requestId);
      same(h, `${label}: Idempotent-Replayed`, header(r, 'idempotent-replayed'), 'true');
      h.stats.replays++;
      return `200 replay of ${outcome.record.requestId}`;
    }
    case 'charge': {
      if (r.status !== 200)
        fail(h, `${label}: expected 200 (charged), got ${r.status} ${r.text.slice(0, 300)}`);
      const body = json(h, r) as {
        request_id: string;
        rates: unknown;
        unavailable: unknown;
        balance_remaining: number;
      };
      same(h, `${label}: request_id format`, REQUEST_ID.test(body.request_id), true);
      same(h, `${label}: X-Request-Id = request_id`, header(r, 'x-request-id'), body.request_id);
      same(h, `${label}: Idempotent-Replayed`, header(r, 'idempotent-replayed'), undefined);
      const { rates: expectedRates, unavailable } = expectedResult(call.variant);
      same(h, `${label}: rates`, body.rates, expectedRates);
      same(h, `${label}: unavailable`, body.unavailable, unavailable);
      same(h, `${label}: balance_remaining`, body.balance_remaining, account.balance - 1);
      charge(m, account, call, body.request_id, r.text);
      h.stats.charged++;
      return `200 charged → ${account.balance}`;
    }
  }
}

function charge(
  m: LedgerModel,
  account: LedgerModel['accounts'][number],
  call: Pick<RatesCall, 'idem' | 'variant'>,
  requestId: string,
  body: string,
): void {
  account.balance -= 1;
  account.charges.push(requestId);
  if (call.idem !== null) {
    account.records.set(call.idem, { variant: call.variant, requestId, body, createdAtMs: m.wallMs });
  }
}

// ---------------------------------------------------------------------------------------------------------
// After every command: the committed file against the model

async function checkFile(m: LedgerModel, h: Harness, label: string): Promise<void> {
  const bad = await h.other.accounts.invariantViolations();
  same(h, `${label}: accounts whose balance ≠ Σ ledger`, bad, []);
  for (const [i, a] of m.accounts.entries()) {
    const id = h.accountIds[i]!;
    const row = await h.probe.account(id);
    const limits = a.override;
    same(
      h,
      `${label}: ${a.name} balance, tier, override in the file`,
      [row.balance, row.tier, row.rps, row.burst],
      [a.balance, a.tier, limits?.rps ?? null, limits?.burst ?? null],
    );
    same(
      h,
      `${label}: ${a.name} ledger 'rates' rows (request_id of each charged 200)`,
      await h.probe.charges(id),
      a.charges,
    );
    const fresh = [...a.records.entries()]
      .filter(([idem]) => freshRecord(m, a, idem) !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    const rows = await h.probe.records(id, m.wallMs - DAY_MS);
    // Keys, owners and ages first (a short message); the stored bytes second.
    same(
      h,
      `${label}: ${a.name} idempotency records within 24 h (key, status, request_id, created_at_ms)`,
      rows.map((r) => [r.idem_key, r.status, r.request_id, r.created_at_ms]),
      fresh.map(([idem, rec]) => [idem, 200, rec.requestId, rec.createdAtMs]),
    );
    rows.forEach((r, j) =>
      same(h, `${label}: stored body of ${a.name}/${r.idem_key}`, r.body, fresh[j]![1].body),
    );
    // Nothing outlives the requests that answered: no balance held, no key claimed. A charge gives its hold
    // back in its own transaction; after an error answer the releases are not waited for (core/api/rates.ts),
    // so they are given a moment to land, but a hold or claim left behind would refuse balance or answer 409.
    if (h.probe.inFlight) {
      const inFlight = h.probe.inFlight;
      let left = await inFlight(id);
      for (const until = performance.now() + 2_000; left.held + left.holds + left.claims > 0;) {
        if (performance.now() > until) break;
        await new Promise((r) => setTimeout(r, 10));
        left = await inFlight(id);
      }
      same(h, `${label}: ${a.name} held balance, hold rows, claims once all answered`, left, {
        held: 0,
        holds: 0,
        claims: 0,
      });
    }
  }
  for (const [i, k] of m.keys.entries()) {
    same(h, `${label}: key#${i} revoked in the file`, await h.probe.revoked(h.keyIds[i]!), k.revoked);
  }
}

/** Every command: run, then compare the file; the transcript line is written before checks can throw. */
async function step(m: LedgerModel, h: Harness, cmd: Cmd, body: () => Promise<string>): Promise<void> {
  h.stats.commands++;
  const n = h.transcript.length + 1;
  h.transcript.push(`#${n} ${cmd.toString()} …`);
  const summary = await body();
  h.transcript[n - 1] = `#${n} ${cmd.toString()} → ${summary}`;
  await checkFile(m, h, `#${n} ${cmd.toString()}`);
}

// ---------------------------------------------------------------------------------------------------------
// Commands

const keyExists = (m: Readonly<LedgerModel>, keyId: number): boolean => keyId < m.keys.length;

class Quote implements Cmd {
  constructor(
    readonly keyId: number,
    readonly idem: string | null,
    readonly variant: Variant,
    readonly spelling: Spelling,
  ) {}
  check = (m: Readonly<LedgerModel>): boolean => keyExists(m, this.keyId);
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, () =>
      rates(m, h, this.toString(), {
        keyId: this.keyId,
        idem: this.idem,
        idemHeader: this.idem,
        variant: this.variant,
        spelling: this.spelling,
      }),
    );
  toString = (): string =>
    `quote(key#${this.keyId}, idem=${this.idem ?? '-'}, ${this.variant}/${this.spelling})`;
}

/**
 * The fresh records of the key's account, in key order. Replay and mismatch pick one by index rather than
 * naming an Idempotency-Key, so that most generated ones find something to replay.
 */
function freshRecordsOf(m: Readonly<LedgerModel>, keyId: number): Array<[string, RecordModel]> {
  const account = m.accounts[m.keys[keyId]!.account]!;
  return [...account.records.entries()]
    .filter(([idem]) => freshRecord(m as LedgerModel, account, idem) !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Same key, same shipment (possibly written differently, key possibly quoted): a replay. */
class Replay implements Cmd {
  /** The Idempotency-Key of the last run, for the report. */
  private idem = '?';
  constructor(
    readonly keyId: number,
    readonly pick: number,
    readonly spelling: Spelling,
    readonly quoted: boolean,
  ) {}
  check = (m: Readonly<LedgerModel>): boolean =>
    keyExists(m, this.keyId) && freshRecordsOf(m, this.keyId).length > 0;
  run = (m: LedgerModel, h: Harness): Promise<void> => {
    const records = freshRecordsOf(m, this.keyId);
    const [idem, record] = records[this.pick % records.length]!;
    this.idem = idem;
    return step(m, h, this, () =>
      rates(m, h, this.toString(), {
        keyId: this.keyId,
        idem,
        idemHeader: this.quoted ? `"${idem}"` : idem,
        variant: record.variant,
        spelling: this.spelling,
      }),
    );
  };
  toString = (): string =>
    `replay(key#${this.keyId}, idem=${this.quoted ? `"${this.idem}"` : this.idem}, same shipment/${this.spelling})`;
}

/** Same key, a different shipment: 422 idempotency_key_reused while the record lives. */
class Mismatch implements Cmd {
  private idem = '?';
  private variant: Variant = 'w1';
  constructor(
    readonly keyId: number,
    readonly pick: number,
    readonly otherVariant: number,
  ) {}
  check = (m: Readonly<LedgerModel>): boolean =>
    keyExists(m, this.keyId) && freshRecordsOf(m, this.keyId).length > 0;
  run = (m: LedgerModel, h: Harness): Promise<void> => {
    const records = freshRecordsOf(m, this.keyId);
    const [idem, record] = records[this.pick % records.length]!;
    // Any variant but the record's: invalid ones included (400 wins over 422, schema comes first).
    this.idem = idem;
    this.variant = VARIANTS[(VARIANTS.indexOf(record.variant) + 1 + this.otherVariant) % VARIANTS.length]!;
    return step(m, h, this, () =>
      rates(m, h, this.toString(), {
        keyId: this.keyId,
        idem,
        idemHeader: idem,
        variant: this.variant,
        spelling: 'plain',
      }),
    );
  };
  toString = (): string => `mismatch(key#${this.keyId}, idem=${this.idem}, ${this.variant})`;
}

class Balance implements Cmd {
  constructor(readonly keyId: number) {}
  check = (m: Readonly<LedgerModel>): boolean => keyExists(m, this.keyId);
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const r = await h.getBalance(h.secrets[this.keyId]!);
      const g = gate(m, this.keyId);
      const early = checkGate(h, this.toString(), g, r);
      if (early !== null || g.kind !== 'pass') return early ?? '';
      same(
        h,
        `${this.toString()}: GET /v1/balance`,
        [r.status, json(h, r)],
        [200, { balance: g.account.balance }],
      );
      return `200 balance ${g.account.balance}`;
    });
  toString = (): string => `balance(key#${this.keyId})`;
}

/**
 * n identical requests at once (the carriers held a few ms so they overlap): the model knows how many get a
 * token; among those, without a key exactly min(n, balance) are charged (reservations), with a key exactly one
 * runs and each other one is 409 in flight or a replay of it.
 */
class Concurrent implements Cmd {
  constructor(
    readonly keyId: number,
    readonly n: number,
    readonly idem: string | null,
    readonly variant: (typeof PRICED_VARIANTS)[number],
  ) {}
  check = (m: Readonly<LedgerModel>): boolean => keyExists(m, this.keyId);
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const label = this.toString();
      const body = shipmentBody(this.variant, 'plain');
      h.carrierDelayMs = 3;
      let replies: Reply[];
      try {
        replies = await Promise.all(
          Array.from({ length: this.n }, () => h.postRates(h.secrets[this.keyId]!, body, this.idem)),
        );
      } finally {
        h.carrierDelayMs = 0;
      }
      // Requests at one instant are interchangeable: compare multisets, not positions.
      const gates = Array.from({ length: this.n }, () => gate(m, this.keyId));
      const got = replies.map((r) => header(r, 'ratelimit') ?? '-');
      const accepted = gates.map((g) =>
        g.kind === 'pass' || g.kind === 'limited' ? acceptedStates(g.take) : ['-'],
      );
      if (!matchesSomeOrder(got, accepted)) {
        const exact = gates.map((g) => (g.kind === 'pass' || g.kind === 'limited' ? g.take.state : '-'));
        same(h, `${label}: RateLimit headers (as a multiset)`, [...got].sort(), exact.sort());
      }
      const refused = gates.filter((g) => g.kind !== 'pass');
      const passed = gates.filter((g) => g.kind === 'pass');
      const expectedRefusals = refused
        .map((g) => (g.kind === 'revoked' ? '401 api_key_revoked' : '429 rate_limit_exceeded'))
        .sort();
      const isRefusal = (r: Reply): boolean => r.status === 401 || r.status === 429;
      same(
        h,
        `${label}: refusals`,
        replies
          .filter(isRefusal)
          .map((r) => `${r.status} ${errorCode(h, r)}`)
          .sort(),
        expectedRefusals,
      );
      const ran = replies.filter((r) => !isRefusal(r));
      const first = passed[0];
      if (first === undefined || first.kind !== 'pass') return expectedRefusals.join(', ') || 'nothing';
      const account = first.account;
      const outcome = ratesOutcome(m, account, this.idem, this.variant);
      if (outcome.kind !== 'charge' || this.idem === null) {
        if (outcome.kind !== 'charge') {
          // A failing run under a key holds its claim until it answers. On a data folder claim, reservation
          // and release follow each other without yielding, so no duplicate ever sees it; on a company
          // database the claim is a row held across round trips, and a duplicate arriving meanwhile is told
          // it is in flight (409), as the spec allows. At least one of them runs and gets the outcome.
          const inFlight = (r: Reply): boolean =>
            h.kind === 'postgres' && this.idem !== null && outcome.kind === 'error' && r.status === 409;
          for (const r of ran.filter(inFlight)) {
            checkError(h, label, r, 409, 'idempotency_key_in_use');
            same(h, `${label}: 409 Retry-After`, header(r, 'retry-after'), '1');
          }
          const settled = ran.filter((r) => !inFlight(r));
          same(h, `${label}: one of them ran`, settled.length > 0 || ran.length === 0, true);
          for (const r of settled) settleRates(m, h, label, this.call(), account, outcome, r);
          return `${settled.length}× ${outcome.kind === 'error' ? outcome.status : 'replay'}, ${ran.length - settled.length}× 409`;
        }
        // No key: the balance decides how many run.
        const charged = ran.filter((r) => r.status === 200);
        same(h, `${label}: charged answers`, charged.length, Math.min(ran.length, account.balance));
        for (const r of ran.filter((x) => x.status !== 200))
          checkError(h, label, r, 402, 'insufficient_balance');
        const byCommit = charged
          .map((r) => ({ r, remaining: (json(h, r) as { balance_remaining: number }).balance_remaining }))
          .sort((a, b) => b.remaining - a.remaining);
        for (const { r } of byCommit) settleRates(m, h, label, this.call(), account, { kind: 'charge' }, r);
        return `${charged.length}× 200 charged, ${ran.length - charged.length}× 402`;
      }
      // One key, balance ≥ 1: exactly one execution.
      const executed = ran.filter((r) => r.status === 200 && header(r, 'idempotent-replayed') === undefined);
      same(h, `${label}: executions under one Idempotency-Key`, executed.length, ran.length > 0 ? 1 : 0);
      settleRates(m, h, label, this.call(), account, { kind: 'charge' }, executed[0]!);
      const record = freshRecord(m, account, this.idem)!;
      let inUse = 0;
      for (const r of ran) {
        if (r === executed[0]) continue;
        if (r.status === 409) {
          checkError(h, label, r, 409, 'idempotency_key_in_use');
          same(h, `${label}: 409 Retry-After`, header(r, 'retry-after'), '1');
          inUse++;
        } else {
          settleRates(m, h, label, this.call(), account, { kind: 'replay', record }, r);
        }
      }
      return `1× 200 charged, ${inUse}× 409, ${ran.length - 1 - inUse}× replay`;
    });
  private call(): RatesCall {
    return {
      keyId: this.keyId,
      idem: this.idem,
      idemHeader: this.idem,
      variant: this.variant,
      spelling: 'plain',
    };
  }
  toString = (): string =>
    `concurrent(${this.n}× key#${this.keyId}, idem=${this.idem ?? '-'}, ${this.variant})`;
}

function tally(items: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of [...items].sort()) out[x] = (out[x] ?? 0) + 1;
  return out;
}

/** True when some pairing of answers with predicted takes has each answer among its take's accepted values. */
function matchesSomeOrder(got: string[], accepted: string[][]): boolean {
  if (got.length === 0) return accepted.length === 0;
  const [first, ...rest] = got;
  return accepted.some(
    (options, i) =>
      options.includes(first!) &&
      matchesSomeOrder(
        rest,
        accepted.filter((_, j) => j !== i),
      ),
  );
}

/** Well-formed keys nobody issued: 401 until the shared brake says 429; no account bucket is touched. */
class UnknownKeys implements Cmd {
  constructor(readonly n: number) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      // All at once (the brake sees them at one instant, so only the counts are predictable).
      const replies = await Promise.all(Array.from({ length: this.n }, () => h.getBalance(generateKey())));
      let allowed = 0;
      for (let i = 0; i < this.n; i++) if (authFailure(m)) allowed++;
      const expected: Record<string, number> = {};
      if (allowed > 0) expected['401 invalid_api_key'] = allowed;
      if (allowed < this.n) expected['429 rate_limit_exceeded'] = this.n - allowed;
      same(
        h,
        `${this.toString()}: answers (counts)`,
        tally(replies.map((r) => `${r.status} ${errorCode(h, r)}`)),
        expected,
      );
      same(
        h,
        `${this.toString()}: RateLimit headers`,
        replies.filter((r) => header(r, 'ratelimit')).length,
        0,
      );
      return `${allowed}× 401, ${this.n - allowed}× 429`;
    });
  toString = (): string => `unknownKeys(${this.n} at once)`;
}

class Revoke implements Cmd {
  constructor(
    readonly keyId: number,
    readonly via: Via,
  ) {}
  check = (m: Readonly<LedgerModel>): boolean => keyExists(m, this.keyId);
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const r = await revokeKey(h.adminStore(this.via), h.clock, { id: h.keyIds[this.keyId]! });
      same(h, `${this.toString()}: already_revoked`, r.already_revoked, m.keys[this.keyId]!.revoked);
      m.keys[this.keyId]!.revoked = true;
      return 'revoked';
    });
  toString = (): string => `revoke(key#${this.keyId}, via ${this.via})`;
}

const MAX_KEYS = 6;

class NewKey implements Cmd {
  constructor(
    readonly account: number,
    readonly via: Via,
  ) {}
  check = (m: Readonly<LedgerModel>): boolean => m.keys.length < MAX_KEYS;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const k = await createKey(h.adminStore(this.via), h.clock, {
        account: ACCOUNT_NAMES[this.account]!,
        // A name per key: since #17 a name in use on the account is refused (a setup change, not the model's).
        name: `model ${m.keys.length}`,
      });
      h.secrets.push(k.secret);
      h.keyIds.push(k.id);
      m.keys.push({ account: this.account, revoked: false });
      return `key#${m.keys.length - 1}`;
    });
  toString = (): string => `newKey(${ACCOUNT_NAMES[this.account]}, via ${this.via})`;
}

class TopUp implements Cmd {
  constructor(
    readonly account: number,
    readonly requests: number,
    readonly via: Via,
  ) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const a = m.accounts[this.account]!;
      const v = await topup(h.adminStore(this.via), h.clock, { account: a.name, requests: this.requests });
      a.balance += this.requests;
      a.tier = 'paid';
      same(h, `${this.toString()}: admin view`, [v.balance, v.tier], [a.balance, a.tier]);
      return `balance ${a.balance}, paid`;
    });
  toString = (): string => `topup(${ACCOUNT_NAMES[this.account]}, +${this.requests}, via ${this.via})`;
}

class SetLimits implements Cmd {
  constructor(
    readonly account: number,
    readonly rps: number,
    readonly burst: number,
    readonly via: Via,
  ) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const a = m.accounts[this.account]!;
      await setLimits(h.adminStore(this.via), h.clock, { account: a.name, rps: this.rps, burst: this.burst });
      a.override = { rps: this.rps, burst: this.burst };
      return 'override set';
    });
  toString = (): string =>
    `setLimits(${ACCOUNT_NAMES[this.account]}, ${this.rps} rps, burst ${this.burst}, via ${this.via})`;
}

class ClearLimits implements Cmd {
  constructor(
    readonly account: number,
    readonly via: Via,
  ) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      const a = m.accounts[this.account]!;
      const v = await clearLimits(h.adminStore(this.via), h.clock, { account: a.name });
      a.override = null;
      same(
        h,
        `${this.toString()}: admin view limits`,
        { rps: v.limits.rps, burst: v.limits.burst },
        effectiveLimits(a),
      );
      return `back to ${a.tier}`;
    });
  toString = (): string => `clearLimits(${ACCOUNT_NAMES[this.account]}, via ${this.via})`;
}

/** `24 h`, `24 h − 1 ms`, `250 ms`: the long jumps sit on the retention boundary and should read so. */
function duration(ms: number): string {
  if (ms < 3_600_000) return `${ms} ms`;
  const hours = Math.round(ms / 3_600_000);
  const rest = ms - hours * 3_600_000;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest > 0 ? '+' : '−'} ${Math.abs(rest)} ms`;
}

/** Time passing: both clocks move. */
class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      m.wallMs += this.ms;
      m.monoMs += this.ms;
      h.clock.wallMs = m.wallMs;
      h.clock.monoMs = m.monoMs;
      return 'ok';
    });
  toString = (): string => `advance(${duration(this.ms)})`;
}

/** The wall clock alone jumps (NTP, a manual change): records age, buckets must not notice. */
class WallJump implements Cmd {
  constructor(readonly ms: number) {}
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      m.wallMs += this.ms;
      h.clock.wallMs = m.wallMs;
      return 'ok';
    });
  toString = (): string => `wallJump(+${duration(this.ms)})`;
}

class Restart implements Cmd {
  check = (): boolean => true;
  run = (m: LedgerModel, h: Harness): Promise<void> =>
    step(m, h, this, async () => {
      await h.restart();
      restartModel(m, h.kind);
      // docs/api.md: records are purged hourly; the start is one of those times.
      same(
        h,
        `${this.toString()}: records older than 24 h left after the start`,
        await h.probe.staleRecords(m.wallMs - DAY_MS),
        0,
      );
      return 'restarted';
    });
  toString = (): string => 'restart';
}

// ---------------------------------------------------------------------------------------------------------
// Generators

const keyRef = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: MAX_KEYS - 1 }) },
);
const accountRef = fc.constantFrom(0, 1);
const idemValue = fc.constantFrom('k1', 'k2', 'k3');
const idemOrNone = fc.oneof(fc.constant(null), idemValue);
const via = fc.constantFrom<Via>('desk', 'cli');
const variant = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<Variant>('w1', 'w2', 'w3', 'partial') },
  { weight: 2, arbitrary: fc.constantFrom<Variant>(...VARIANTS) },
);
const spelling = fc.constantFrom<Spelling>(...SPELLINGS);
// Override rates whose ×10 is whole (the model's exact units), from slower than the free tier to faster.
const rps = fc.constantFrom(0.5, 1, 2, 3, 10, 20);
const burst = fc.constantFrom(1, 2, 3, 5, 20);
const shortMs = fc.constantFrom(1, 50, 100, 250, 400, 500, 999, 1000, 2500, 10_000);
const longMs = fc.constantFrom(DAY_MS - 1, DAY_MS, DAY_MS + 1, 2 * DAY_MS);

const commands: Array<fc.Arbitrary<Cmd>> = [
  fc.oneof(
    {
      weight: 10,
      arbitrary: fc.tuple(keyRef, idemOrNone, variant, spelling).map(([k, i, v, s]) => new Quote(k, i, v, s)),
    },
    {
      weight: 5,
      arbitrary: fc
        .tuple(keyRef, fc.nat(5), spelling, fc.boolean())
        .map(([k, i, s, q]) => new Replay(k, i, s, q)),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(keyRef, fc.nat(5), fc.nat(VARIANTS.length - 2))
        .map(([k, i, v]) => new Mismatch(k, i, v)),
    },
    { weight: 3, arbitrary: keyRef.map((k) => new Balance(k)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(keyRef, fc.integer({ min: 2, max: 4 }), idemOrNone, fc.constantFrom(...PRICED_VARIANTS))
        .map(([k, n, i, v]) => new Concurrent(k, n, i, v)),
    },
    { weight: 5, arbitrary: shortMs.map((ms) => new Advance(ms)) },
    { weight: 1, arbitrary: longMs.map((ms) => new Advance(ms)) },
    { weight: 1, arbitrary: longMs.map((ms) => new WallJump(ms)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(accountRef, fc.integer({ min: 1, max: 3 }), via)
        .map(([a, n, w]) => new TopUp(a, n, w)),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(accountRef, rps, burst, via).map(([a, r, b, w]) => new SetLimits(a, r, b, w)),
    },
    { weight: 1, arbitrary: fc.tuple(accountRef, via).map(([a, w]) => new ClearLimits(a, w)) },
    { weight: 2, arbitrary: fc.tuple(keyRef, via).map(([k, w]) => new Revoke(k, w)) },
    { weight: 2, arbitrary: fc.tuple(accountRef, via).map(([a, w]) => new NewKey(a, w)) },
    { weight: 2, arbitrary: fc.constant(null).map(() => new Restart()) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => new UnknownKeys(n)) },
  ),
];

// ---------------------------------------------------------------------------------------------------------
// The property

const WALL_START = Date.UTC(2025, 0, 15, 9, 0, 0);
const MONO_START = 1_000_000;

/**
 * The end of every run: an hour later (buckets full again), GET /v1/balance of each account through a key
 * that still works (a new one when all are revoked) must say what the model says.
 */
async function finalBalances(m: LedgerModel, h: Harness): Promise<void> {
  m.wallMs += 3_600_000;
  m.monoMs += 3_600_000;
  h.clock.wallMs = m.wallMs;
  h.clock.monoMs = m.monoMs;
  for (const [i, a] of m.accounts.entries()) {
    let keyId = m.keys.findIndex((k) => k.account === i && !k.revoked);
    if (keyId === -1) {
      const k = await createKey(h.other, h.clock, { account: a.name, name: 'final check' });
      h.secrets.push(k.secret);
      h.keyIds.push(k.id);
      m.keys.push({ account: i, revoked: false });
      keyId = m.keys.length - 1;
    }
    const r = await h.getBalance(h.secrets[keyId]!);
    same(h, `final GET /v1/balance of ${a.name}`, [r.status, json(h, r)], [200, { balance: a.balance }]);
  }
}

describe.each(['sqlite', 'postgres'] as const satisfies readonly StoreKind[])('on %s', (kind) => {
  const runs = kind === 'sqlite' ? RUNS : PG_RUNS;

  it(
    `ledger, idempotency, revocation and limits follow the model (${runs} runs, seed ${SEED})`,
    { timeout: scale(300_000, 3_600_000) },
    async () => {
      console.log(
        `ledger-model (${kind}): seed ${SEED}, ${runs} runs, ≤ ${MAX_COMMANDS} commands each; ` +
          `replay with RATEDESK_SEED=${SEED} npx vitest run test/reliability/ledger-model.test.ts -t ${kind}`,
      );
      const stats = emptyStats();
      const started = performance.now();
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
            fc.commands(commands, {
              maxCommands: MAX_COMMANDS,
              size: 'max',
              ...(REPLAY_PATH !== undefined ? { replayPath: REPLAY_PATH } : {}),
            }),
            async (balances, cmds) => {
              stats.runs++;
              const clock = new VirtualClock(WALL_START, MONO_START);
              const h = await Harness.start(balances, clock, stats, kind);
              try {
                const model = initialModel(balances, clock);
                await fc.asyncModelRun(() => ({ model, real: h }), cmds);
                await finalBalances(model, h);
              } finally {
                await h.close();
              }
            },
          ),
          { numRuns: runs, seed: SEED, ...(PATH !== undefined ? { path: PATH } : {}) },
        );
      } finally {
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `ledger-model (${kind}): ${stats.runs} runs (shrinking included), ${stats.commands} commands, ` +
            `${stats.requests} HTTP requests, ${stats.charged} charged 200s, ${stats.replays} replays, ` +
            `${stats.restarts} restarts, one-ulp rate-limit values (must be 0): ` +
            `r ×${stats.drift.r}, t ×${stats.drift.t}, Retry-After ×${stats.drift.retryAfter}, ` +
            `in ${seconds.toFixed(1)} s; answers: ` +
            Object.entries(stats.answers)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, n]) => `${k} ×${n}`)
              .join(', '),
        );
      }
    },
  );

  /**
   * A defect found by the property above, now fixed (one of its first runs, shrunk to: free tier, five requests
   * spaced 0, 0, 0, +400 ms, +100 ms). The bucket then holds exactly 2 tokens, the fifth request takes one and one
   * whole token is left, which the limiter itself grants to the next request; but RateLimit says r=0 because
   * core/limits/token-bucket.ts computes 3 − 1 + 0.8 − 1 + 0.2 in floats (0.9999999999999998 left), decides with
   * an epsilon (tokens ≥ 1 − 1e-9) and reported Math.floor(tokens) without it.
   */
  it('RateLimit r= counts the whole token the limiter still grants (float drift regression)', async () => {
    const clock = new VirtualClock(WALL_START, MONO_START);
    const h = await Harness.start([0], clock, emptyStats(), kind);
    try {
      const get = (): Promise<Reply> => h.getBalance(h.secrets[0]!);
      for (let i = 0; i < 3; i++)
        expect((await get()).headers['ratelimit']).toBe(`"account";r=${4 - i};t=${Math.ceil((i + 1) / 2)}`);
      clock.monoMs += 400;
      expect((await get()).headers['ratelimit']).toBe('"account";r=1;t=2');
      clock.monoMs += 100;
      const fifth = await get();
      const sixth = await get();
      // The limiter grants the sixth request at the same instant: a token was left after the fifth.
      expect(sixth.status).toBe(200);
      expect(fifth.headers['ratelimit']).toBe('"account";r=1;t=2');
    } finally {
      await h.close();
    }
  });
});
