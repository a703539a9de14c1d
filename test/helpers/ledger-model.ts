// The in-memory model of the /v1 ledger, idempotency, revocation and rate limits that
// test/reliability/ledger-model.test.ts runs against the real service, and the harness around that service
// (virtual clock, in-process carriers, an HTTP client with its own connection pool, a second connection to
// the store that reads what is committed and plays the admin CLI), on a data folder (SQLite) or a company
// database (PostgreSQL, ledger-model-postgres.ts).
//
// The model is written from docs/api.md, not copied from core/: token buckets are kept in exact integer
// units (1/10 000 of a token) while the core uses floats, so a drift in the core's arithmetic shows up instead
// of being reproduced.
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../core/operations';
import { openDataFolder } from '../../core/store/data-folder';
import { createKey } from '../../core/operations';
import type { CarrierAdapter, CarrierOutcome, CarrierQuoteRequest } from '../../core/carriers/types';
import type { Rate, Unavailable } from '../../core/contract/v1';
import type { SqliteStore, Store } from '../../core/store';
import type { Clock } from '../../core/util/clock';
import { openModelDatabase, type ModelDatabase } from './ledger-model-postgres';
import { startTestService, type TestService } from './service';

export const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------------------
// Time

/** Both clocks belong to the model: the buckets are deterministic only if no real time leaks in. */
export class VirtualClock implements Clock {
  constructor(
    public wallMs: number,
    public monoMs: number,
  ) {}
  now(): Date {
    return new Date(this.wallMs);
  }
  monotonicMs(): number {
    return this.monoMs;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Token buckets, exactly

export interface Limits {
  rps: number;
  burst: number;
}

/** docs/api.md "Rate limits". */
export const FREE_LIMITS: Limits = { rps: 2, burst: 5 };
export const PAID_LIMITS: Limits = { rps: 10, burst: 20 };
/** docs/api.md status table: failed authentications, 20/s burst 50, shared by the whole listener. */
export const AUTH_FAILURE_LIMITS: Limits = { rps: 20, burst: 50 };

/** 1/10 000 of a token: every rps the suite uses times 10 is a whole number, so refills are exact per ms. */
const UNITS = 10_000;

export interface BucketModel {
  units: number;
  atMs: number;
}

export interface TakeModel {
  allowed: boolean;
  /** RateLimit-Policy, exact. */
  policy: string;
  /** RateLimit with the exact token count. */
  state: string;
  /** Retry-After of a refusal, exact. */
  retryAfter: number;
  /**
   * The values a limiter computing in floats may show instead, one ulp off on a whole-number boundary:
   * floor(2 − ε) = 1 for r, ceil(2 + ε) = 3 for t and Retry-After. `state` and `retryAfter` come first.
   */
  driftStates: string[];
  driftRetryAfters: number[];
}

function ceilDiv(a: number, b: number): number {
  return a <= 0 ? 0 : Math.floor((a + b - 1) / b);
}

/**
 * One request's token: a missing bucket starts full; the refill since the last request uses the limits in
 * force now (an override applies on the next request, docs/api.md), capped at the current burst.
 */
export function takeToken(
  bucket: BucketModel | null,
  limits: Limits,
  nowMs: number,
): { bucket: BucketModel; take: TakeModel } {
  const perMs = limits.rps * (UNITS / 1000);
  if (!Number.isInteger(perMs))
    throw new Error(`the model needs rps × 10 to be whole, got rps ${limits.rps}`);
  const cap = limits.burst * UNITS;
  const start = bucket ?? { units: cap, atMs: nowMs };
  let units = Math.min(cap, start.units + Math.max(0, nowMs - start.atMs) * perMs);
  const allowed = units >= UNITS;
  if (allowed) units -= UNITS;
  const perSecond = perMs * 1000;
  const policy = `"account";q=${limits.burst};w=${Math.max(1, ceilDiv(cap, perSecond))}`;
  const remaining = allowed ? Math.floor(units / UNITS) : 0;
  const reset = ceilDiv(cap - units, perSecond);
  const remainings = [remaining, ...(allowed && units > 0 && units % UNITS === 0 ? [remaining - 1] : [])];
  const resets = [reset, ...(cap > units && (cap - units) % perSecond === 0 ? [reset + 1] : [])];
  const states = remainings.flatMap((r) => resets.map((t) => `"account";r=${r};t=${t}`));
  const retry = Math.max(1, ceilDiv(UNITS - units, perSecond));
  const retries = allowed ? [0] : [retry, ...((UNITS - units) % perSecond === 0 ? [retry + 1] : [])];
  return {
    bucket: { units, atMs: nowMs },
    take: {
      allowed,
      policy,
      state: states[0]!,
      retryAfter: retries[0]!,
      driftStates: states,
      driftRetryAfters: retries,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Shipments and the carriers that answer them

/**
 * w1–w3: three different shipments every carrier prices; partial: one carrier fails (200, still charged);
 * down: every carrier has no service (503); none: only an unknown carrier asked (422 no_queryable_carrier);
 * invalid: breaks the schema (400).
 */
export const VARIANTS = ['w1', 'w2', 'w3', 'partial', 'down', 'none', 'invalid'] as const;
export type Variant = (typeof VARIANTS)[number];
export const PRICED_VARIANTS = ['w1', 'w2', 'w3', 'partial'] as const satisfies readonly Variant[];

/** Ways of writing one shipment that docs/api.md says fingerprint the same. */
export const SPELLINGS = ['plain', 'reordered', 'defaults', 'pretty'] as const;
export type Spelling = (typeof SPELLINGS)[number];

const PARTIAL_POSTAL = '199002';
const DOWN_POSTAL = '199999';

function shipmentOf(variant: Variant): {
  weight: number;
  toPostal: string;
  carriers?: string[];
} {
  switch (variant) {
    case 'w1':
      return { weight: 1000, toPostal: '420000' };
    case 'w2':
      return { weight: 2000, toPostal: '420000' };
    case 'w3':
      return { weight: 3000, toPostal: '420000' };
    case 'partial':
      return { weight: 1500, toPostal: PARTIAL_POSTAL };
    case 'down':
      return { weight: 1000, toPostal: DOWN_POSTAL };
    case 'none':
      return { weight: 1000, toPostal: '420000', carriers: ['nosuch'] };
    case 'invalid':
      return { weight: 0, toPostal: '420000' };
  }
}

export function shipmentBody(variant: Variant, spelling: Spelling): string {
  const s = shipmentOf(variant);
  const from = { city: 'Москва', postal_code: '101000' };
  const to = { city: 'Казань', postal_code: s.toPostal };
  const parcel = { weight_grams: s.weight, length_cm: 30, width_cm: 20, height_cm: 10 };
  const carriers = s.carriers ? { carriers: s.carriers } : {};
  switch (spelling) {
    case 'plain':
      return JSON.stringify({ from, to, parcel, ...carriers });
    case 'reordered':
      return JSON.stringify({
        ...carriers,
        parcel: {
          height_cm: parcel.height_cm,
          width_cm: parcel.width_cm,
          length_cm: parcel.length_cm,
          weight_grams: parcel.weight_grams,
        },
        to: { postal_code: to.postal_code, city: to.city },
        from: { postal_code: from.postal_code, city: from.city },
      });
    case 'defaults':
      return JSON.stringify({
        from: { ...from, country: 'RU' },
        to: { country: 'RU', ...to },
        parcel,
        declared_value_kopecks: 0,
        ...carriers,
      });
    case 'pretty':
      return JSON.stringify({ from, to, parcel, ...carriers }, null, 2);
  }
}

function rate(carrier: 'alpha' | 'beta', weight: number): Rate {
  return {
    carrier,
    carrier_name: carrier === 'alpha' ? 'Альфа' : 'Бета',
    service_code: `${carrier}:1`,
    service_name: 'Посылка',
    delivery_type: carrier === 'alpha' ? 'door' : 'pickup_point',
    price_kopecks: carrier === 'alpha' ? 10 * weight + 1000 : 7 * weight + 5000,
    currency: 'RUB',
    days_min: 1,
    days_max: carrier === 'alpha' ? 2 : 4,
    price_type: 'public',
  };
}

/** What a 200 must contain for a priced variant, in the documented order (cheapest first). */
export function expectedResult(variant: Variant): { rates: Rate[]; unavailable: Unavailable[] } {
  const { weight } = shipmentOf(variant);
  if (variant === 'partial') {
    return {
      rates: [rate('alpha', weight)],
      unavailable: [{ carrier: 'beta', reason: 'carrier error: outage' }],
    };
  }
  const rates = [rate('alpha', weight), rate('beta', weight)].sort(
    (a, b) => a.price_kopecks - b.price_kopecks,
  );
  return { rates, unavailable: [] };
}

export function expectedUnavailableWhenDown(): Unavailable[] {
  return [
    { carrier: 'alpha', reason: 'no service on this route' },
    { carrier: 'beta', reason: 'no service on this route' },
  ];
}

/**
 * Two in-process carriers (the `adapters` seam of createRatingService): deterministic, no HTTP. `delayMs`
 * is read per call so a concurrent command can hold requests in flight long enough to overlap.
 */
export function modelCarriers(delayMs: () => number): CarrierAdapter[] {
  const make = (code: 'alpha' | 'beta'): CarrierAdapter => ({
    code,
    name: code === 'alpha' ? 'Альфа' : 'Бета',
    async quote(req: CarrierQuoteRequest): Promise<CarrierOutcome> {
      const wait = delayMs();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (req.to.postalCode === DOWN_POSTAL) return { ok: false, kind: 'no_service' };
      if (code === 'beta' && req.to.postalCode === PARTIAL_POSTAL) {
        return { ok: false, kind: 'carrier_error', detail: 'outage' };
      }
      return { ok: true, rates: [rate(code, req.parcel.weight_grams)] };
    },
  });
  return [make('alpha'), make('beta')];
}

// ---------------------------------------------------------------------------------------------------------
// The model

export type Tier = 'free' | 'paid';

export interface RecordModel {
  variant: Variant;
  requestId: string;
  /** The exact bytes of the first answer: a replay must repeat them. */
  body: string;
  createdAtMs: number;
}

export interface AccountModel {
  name: string;
  balance: number;
  tier: Tier;
  override: Limits | null;
  /** null until the first authenticated request since the (re)start: the bucket then starts full. */
  bucket: BucketModel | null;
  /** request_id of every charged 200, in ledger order. */
  charges: string[];
  records: Map<string, RecordModel>;
}

export interface KeyModel {
  account: number;
  revoked: boolean;
}

export interface LedgerModel {
  wallMs: number;
  monoMs: number;
  accounts: AccountModel[];
  /** Keys by creation order; commands name them by this index, which shrinking cannot renumber. */
  keys: KeyModel[];
  /** The listener-wide bucket of failed authentications. */
  authBrake: BucketModel | null;
}

export const ACCOUNT_NAMES = ['acct-a', 'acct-b'] as const;

export function initialModel(balances: readonly number[], clock: VirtualClock): LedgerModel {
  return {
    wallMs: clock.wallMs,
    monoMs: clock.monoMs,
    accounts: balances.map((balance, i) => ({
      name: ACCOUNT_NAMES[i]!,
      balance,
      tier: 'free',
      override: null,
      bucket: null,
      charges: [],
      records: new Map(),
    })),
    keys: balances.map((_, i) => ({ account: i, revoked: false })),
    authBrake: null,
  };
}

export function effectiveLimits(a: AccountModel): Limits {
  return a.override ?? (a.tier === 'paid' ? PAID_LIMITS : FREE_LIMITS);
}

/** docs/api.md: records are kept 24 hours from the first request; afterwards the key is new again. */
export function freshRecord(m: LedgerModel, account: AccountModel, idem: string): RecordModel | undefined {
  const r = account.records.get(idem);
  return r && m.wallMs - r.createdAtMs < DAY_MS ? r : undefined;
}

/** What authentication and the rate limiter decide for one request with key `keyId` (mutates the buckets). */
export type Gate =
  | { kind: 'revoked' }
  | { kind: 'auth-brake' }
  | { kind: 'limited'; take: TakeModel }
  | { kind: 'pass'; take: TakeModel; account: AccountModel };

export function gate(m: LedgerModel, keyId: number): Gate {
  const key = m.keys[keyId]!;
  if (key.revoked) return authFailure(m) ? { kind: 'revoked' } : { kind: 'auth-brake' };
  const account = m.accounts[key.account]!;
  const { bucket, take } = takeToken(account.bucket, effectiveLimits(account), m.monoMs);
  account.bucket = bucket;
  return take.allowed ? { kind: 'pass', take, account } : { kind: 'limited', take };
}

/** A failed authentication: true while the shared brake still lets it through as a 401. */
export function authFailure(m: LedgerModel): boolean {
  const { bucket, take } = takeToken(m.authBrake, AUTH_FAILURE_LIMITS, m.monoMs);
  m.authBrake = bucket;
  return take.allowed;
}

/** POST /v1/rates after the gate passed, in the documented order: schema → idempotency → balance → carriers. */
export type RatesOutcome =
  | { kind: 'error'; status: number; code: string }
  | { kind: 'replay'; record: RecordModel }
  | { kind: 'charge' };

export function ratesOutcome(
  m: LedgerModel,
  account: AccountModel,
  idem: string | null,
  variant: Variant,
): RatesOutcome {
  if (variant === 'invalid') return { kind: 'error', status: 400, code: 'validation_failed' };
  if (idem !== null) {
    const record = freshRecord(m, account, idem);
    if (record) {
      return record.variant === variant
        ? { kind: 'replay', record }
        : { kind: 'error', status: 422, code: 'idempotency_key_reused' };
    }
  }
  if (account.balance < 1) return { kind: 'error', status: 402, code: 'insufficient_balance' };
  if (variant === 'none') return { kind: 'error', status: 422, code: 'no_queryable_carrier' };
  if (variant === 'down') return { kind: 'error', status: 503, code: 'rates_unavailable' };
  return { kind: 'charge' };
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * A restart: on a data folder the buckets live in memory and start full; on a company database they are rows
 * that every instance shares, and stay. Everything else in the store stays.
 */
export function restartModel(m: LedgerModel, kind: StoreKind): void {
  if (kind === 'postgres') return;
  for (const a of m.accounts) a.bucket = null;
  m.authBrake = null;
}

// ---------------------------------------------------------------------------------------------------------
// The system under test

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RunStats {
  runs: number;
  commands: number;
  requests: number;
  restarts: number;
  charged: number;
  replays: number;
  /** Answers by status and error code (`429 rate_limit_exceeded`), to show what the runs exercised. */
  answers: Record<string, number>;
  /** Rate-limit values that matched only one ulp off (the known float-drift defect), by field. */
  drift: { r: number; t: number; retryAfter: number };
}

export function emptyStats(): RunStats {
  return {
    runs: 0,
    commands: 0,
    requests: 0,
    restarts: 0,
    charged: 0,
    replays: 0,
    answers: {},
    drift: { r: 0, t: 0, retryAfter: 0 },
  };
}

/** The rows the checks read after every command, through a connection of their own (what is committed). */
export interface Probe {
  account: (id: number) => Promise<{ balance: number; tier: Tier; rps: number | null; burst: number | null }>;
  charges: (id: number) => Promise<string[]>;
  records: (
    id: number,
    afterMs: number,
  ) => Promise<
    Array<{ idem_key: string; status: number; body: string; request_id: string; created_at_ms: number }>
  >;
  revoked: (keyId: string) => Promise<boolean>;
  staleRecords: (beforeMs: number) => Promise<number>;
  /**
   * A company database only (a data folder keeps both in its process): the account's held requests of balance
   * (accounts.held and its hold rows) and its idempotency claims, none of which may outlive an answer.
   */
  inFlight?: (id: number) => Promise<{ held: number; holds: number; claims: number }>;
}

export class Harness {
  service!: TestService;
  agent = new Agent({ keepAlive: true });
  /** A second connection to the store: the admin CLI's writes and the checks' reads. */
  readonly other: Store;
  readonly probe: Probe;
  readonly secrets: string[] = [];
  readonly keyIds: string[] = [];
  readonly accountIds: number[] = [];
  /** One line per command: what was sent and what came back, quoted in every failure. */
  readonly transcript: string[] = [];
  carrierDelayMs = 0;
  /** The database clock last written (company database only). */
  private dbClockMs: number | null = null;

  private constructor(
    readonly dir: string,
    readonly clock: VirtualClock,
    readonly stats: RunStats,
    readonly kind: StoreKind,
    private readonly database: ModelDatabase | null,
  ) {
    if (database) {
      this.other = database.other;
      this.probe = database.probe;
      return;
    }
    const other = openDataFolder(dir, { clock });
    this.other = other;
    this.probe = sqliteProbe(other);
  }

  /** A fresh data folder or company database with the model's accounts and one key each, served on 127.0.0.1. */
  static async start(
    balances: readonly number[],
    clock: VirtualClock,
    stats: RunStats,
    kind: StoreKind = 'sqlite',
  ): Promise<Harness> {
    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-ledger-model-'));
    let database: ModelDatabase | null = null;
    let h: Harness;
    try {
      if (kind === 'postgres') database = await openModelDatabase();
      h = new Harness(dir, clock, stats, kind, database);
    } catch (err) {
      await database?.close();
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    try {
      await h.boot();
      const store = h.service.service.store;
      for (const [i, balance] of balances.entries()) {
        const name = ACCOUNT_NAMES[i]!;
        h.accountIds.push((await createAccount(store, clock, { name, balance })).id);
        const key = await createKey(store, clock, { account: name, name: 'model' });
        h.secrets.push(key.secret);
        h.keyIds.push(key.id);
      }
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  private async boot(): Promise<void> {
    await this.syncClock();
    this.service = await startTestService({
      dir: this.dir,
      ...(this.database ? { database: { url: this.database.url } } : {}),
      clock: this.clock,
      adapters: modelCarriers(() => this.carrierDelayMs),
      // The model owns every account's limits; the helper's generous override on `default` is not wanted.
      tierLimits: true,
    });
  }

  /** The database clock follows the model's monotonic clock (ledger-model-postgres.ts); before each request. */
  private async syncClock(): Promise<void> {
    if (!this.database || this.dbClockMs === this.clock.monoMs) return;
    await this.database.setClock(this.clock.monoMs);
    this.dbClockMs = this.clock.monoMs;
  }

  /** Closes the service (the folder stays) and serves it again: a process restart as the core sees it. */
  async restart(): Promise<void> {
    await this.service.stop();
    this.agent.destroy();
    this.agent = new Agent({ keepAlive: true });
    await this.boot();
    this.stats.restarts++;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    await this.service?.stop().catch(() => {});
    if (this.database) await this.database.close();
    else await this.other.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async send(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Reply> {
    await this.syncClock();
    this.stats.requests++;
    const port = this.service.port;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent: this.agent,
          headers: { Host: `127.0.0.1:${port}`, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const reply = {
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            };
            this.count(reply);
            resolve(reply);
          });
          res.on('error', reject);
        },
      );
      // A hung request is a finding, not a reason to wait for the suite's timeout.
      req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  private count(r: Reply): void {
    let what: string;
    if (r.status === 200) what = r.headers['idempotent-replayed'] === 'true' ? '200 replay' : '200';
    else {
      const m = /"code":"([a-z_]+)"/.exec(r.text);
      what = `${r.status} ${m?.[1] ?? '?'}`;
    }
    this.stats.answers[what] = (this.stats.answers[what] ?? 0) + 1;
  }

  postRates(secret: string, body: string, idemHeader: string | null): Promise<Reply> {
    return this.send(
      'POST',
      '/v1/rates',
      {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
        ...(idemHeader !== null ? { 'Idempotency-Key': idemHeader } : {}),
      },
      body,
    );
  }

  getBalance(secret: string): Promise<Reply> {
    return this.send('GET', '/v1/balance', { Authorization: `Bearer ${secret}` });
  }

  /** The store an admin change goes through: the service's own connection (the desk) or another one (the CLI). */
  adminStore(via: 'desk' | 'cli'): Store {
    return via === 'desk' ? this.service.service.store : this.other;
  }
}

/** The probe's reads on the data file, through the SQLite store's own handle (a second connection). */
function sqliteProbe(store: SqliteStore): Probe {
  const db = store.db;
  const account = db.prepare<
    [number],
    { balance: number; tier: Tier; rps: number | null; burst: number | null }
  >(
    `SELECT a.balance, a.tier, o.rps, o.burst FROM accounts a
     LEFT JOIN rate_limit_overrides o ON o.account_id = a.id WHERE a.id = ?`,
  );
  const charges = db
    .prepare<[number], string>(
      "SELECT request_id FROM ledger WHERE account_id = ? AND kind = 'rates' ORDER BY id",
    )
    .pluck();
  const records = db.prepare<
    [number, number],
    { idem_key: string; status: number; body: string; request_id: string; created_at_ms: number }
  >(
    `SELECT idem_key, status, body, request_id, created_at_ms FROM idempotency
     WHERE account_id = ? AND created_at_ms > ? ORDER BY idem_key`,
  );
  const revoked = db.prepare<[string], string | null>('SELECT revoked_at FROM api_keys WHERE id = ?').pluck();
  const stale = db
    .prepare<[number], number>('SELECT COUNT(*) FROM idempotency WHERE created_at_ms < ?')
    .pluck();
  return {
    account: async (id) => account.get(id)!,
    charges: async (id) => charges.all(id),
    records: async (id, afterMs) => records.all(id, afterMs),
    revoked: async (keyId) => {
      const at = revoked.get(keyId);
      if (at === undefined) throw new Error(`key ${keyId} is not in the file`);
      return at !== null;
    },
    staleRecords: async (beforeMs) => stale.get(beforeMs)!,
  };
}
