// A company server for the proof test (test/reliability/company-server.test.ts): N `serve` processes on one
// PostgreSQL database, as an operator runs them, each killable with SIGKILL and restartable on the same
// database. The test's own store connection prepares accounts and keys (the same operations the admin CLI
// runs) and reads the tables afterwards through PgStore.db, which is the implementation's and not the port's:
// the oracle reads rows, not what the store says about them.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { createAccount, createKey, setLimits, writeSetting } from '../../core/operations';
import { openPgStore, type PgStore } from '../../core/store/postgres';
import { SHIPMENT } from './service';

const clock = { now: () => new Date() };
const START_TIMEOUT_MS = 30_000;
const STDERR_LINES_KEPT = 200;

export interface Instance {
  /** Which of the N this is (kept across restarts). */
  index: number;
  proc: ChildProcess;
  port: number;
  /** Keep-alive connections to this process; a restart gets a new agent. */
  agent: Agent;
  stderr: string[];
  exited: Promise<void>;
  alive(): boolean;
}

export interface Company {
  databaseUrl: string;
  /** The test's own connection to the database: preparation and the oracle's reads. */
  store: PgStore;
  /** The current process of each instance (replaced by restart). */
  instances: Instance[];
  /** SIGKILL, waited for: the process is gone, its connections to the database dropped by the server. */
  kill(index: number): Promise<void>;
  /** A new process for the instance on the same database; resolves when it listens. */
  restart(index: number): Promise<Instance>;
  close(): Promise<void>;
}

/** `npm run serve -- --database URL --port 0 --no-warm-up` without the npm wrapper, so SIGKILL hits serve. */
async function startInstance(
  index: number,
  databaseUrl: string,
  env: Record<string, string>,
): Promise<Instance> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'core/cli/serve.ts', '--database', databaseUrl, '--port', '0', '--no-warm-up'],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => {
    stderr.push(l);
    if (stderr.length > STDERR_LINES_KEPT) stderr.shift();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`instance ${index} printed no URL within ${START_TIMEOUT_MS} ms:\n${stderr.join('\n')}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`instance ${index} exited before listening:\n${stderr.join('\n')}`));
    });
  });
  return {
    index,
    proc,
    port: Number(new URL(url).port),
    agent: new Agent({ keepAlive: true, maxSockets: 64 }),
    stderr,
    exited,
    alive: () => proc.exitCode === null && proc.signalCode === null,
  };
}

export async function startCompany(options: {
  databaseUrl: string;
  instances: number;
  env?: Record<string, string>;
  /** Runs on the test's store before any instance starts (settings every instance must start with). */
  prepare?: (store: PgStore) => Promise<void>;
}): Promise<Company> {
  const { databaseUrl, env = {} } = options;
  // Migrates the empty database first, so the instances start on a ready schema (they would also migrate
  // once between them, under the advisory lock).
  const store = await openPgStore(databaseUrl);
  const instances: Instance[] = [];
  // The process dies first, its clients' connections with it: closing them first would let the server see
  // its clients leave (and roll their charges back) before the kill, which is not the crash tested here.
  const stop = async (instance: Instance): Promise<void> => {
    if (instance.alive()) instance.proc.kill('SIGKILL');
    await instance.exited;
    instance.agent.destroy();
  };
  const company: Company = {
    databaseUrl,
    store,
    instances,
    async kill(index) {
      await stop(instances[index]!);
    },
    async restart(index) {
      const instance = await startInstance(index, databaseUrl, env);
      instances[index] = instance;
      return instance;
    },
    async close() {
      await Promise.all(instances.map(stop));
      await store.close();
    },
  };
  try {
    await options.prepare?.(store);
    instances.push(
      ...(await Promise.all(
        Array.from({ length: options.instances }, (_, i) => startInstance(i, databaseUrl, env)),
      )),
    );
  } catch (error) {
    await company.close();
    throw error;
  }
  return company;
}

export interface PreparedAccount {
  name: string;
  id: number;
  /** Held in memory only, never printed. */
  secret: string;
  keyId: string;
}

/**
 * An account with one key. `raised` lifts its rate limit far above any load here, so that a 429 never hides
 * a charge; without it the account keeps the free tier's limit.
 */
export async function prepareAccount(
  store: PgStore,
  name: string,
  balance: number,
  raised = true,
): Promise<PreparedAccount> {
  const { id } = await createAccount(store, clock, { name, balance });
  if (raised) await setLimits(store, clock, { account: name, rps: 10_000, burst: 100_000 });
  const key = await createKey(store, clock, { account: name, name: `${name} key` });
  return { name, id, secret: key.secret, keyId: key.id };
}

/** A setting as `npm run admin -- settings set` writes it; every instance reloads its copy on the change. */
export async function setSetting(store: PgStore, name: string, value: string): Promise<void> {
  await writeSetting(store, clock, name, value);
}

/** `npm run admin -- --database URL --json …` without the npm wrapper (and without building dist/hosts). */
export function admin(
  databaseUrl: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'core/cli/admin.ts', '--database', databaseUrl, '--json', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    proc.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What a caller saw: a whole response, or a connection that died (the request may or may not have run). */
export type Reply =
  | { kind: 'response'; status: number; text: string; requestId?: string; replayed: boolean; code?: string }
  | { kind: 'lost'; error: string };

export interface Call {
  instance: Instance;
  secret: string;
  method?: 'GET' | 'POST';
  path?: string;
  body?: string;
  idempotencyKey?: string;
  timeoutMs?: number;
}

/** One request on the instance's keep-alive agent. Never rejects: a reset or a timeout is `lost`. */
export function send(call: Call): Promise<Reply> {
  const { instance, body } = call;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (reply: Reply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(reply);
    };
    const headers: Record<string, string> = { Authorization: `Bearer ${call.secret}` };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    if (call.idempotencyKey !== undefined) headers['Idempotency-Key'] = call.idempotencyKey;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: instance.port,
        method: call.method ?? 'POST',
        path: call.path ?? '/v1/rates',
        agent: instance.agent,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => settle({ kind: 'lost', error: `response: ${e.message}` }));
        res.on('close', () => {
          if (!res.complete) settle({ kind: 'lost', error: 'response cut short' });
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const id = res.headers['x-request-id'];
          const code = errorCode(text);
          settle({
            kind: 'response',
            status: res.statusCode ?? 0,
            text,
            ...(typeof id === 'string' ? { requestId: id } : {}),
            replayed: res.headers['idempotent-replayed'] === 'true',
            ...(code !== undefined ? { code } : {}),
          });
        });
      },
    );
    const timeoutMs = call.timeoutMs ?? 20_000;
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => settle({ kind: 'lost', error: e.code ?? e.message }));
    req.end(body);
  });
}

function errorCode(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof v.error?.code === 'string' ? v.error.code : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The tables as the database holds them

export interface AccountRowSnap {
  id: number;
  name: string;
  balance: number;
  held: number;
  /** Sum of the ledger's non-`rates` rows: what the account was given. */
  credited: number;
  /** The ledger's `rates` rows. */
  charges: number;
}

export interface Tables {
  accounts: Map<string, AccountRowSnap>;
  /** `rates` ledger rows: request_id → account id (every one has a request_id), and how many rows had it. */
  chargeRequestIds: Map<string, { accountId: number; rows: number }>;
  idempotency: Array<{
    accountId: number;
    key: string;
    status: number | null;
    body: string | null;
    requestId: string | null;
  }>;
  holds: number;
}

/**
 * Everything in one REPEATABLE READ transaction: one consistent state of the database. `settledWithinMs`:
 * first wait (that long at most) for the holds and claims of answered calls to be given back: an instance
 * gives them back just after its answer leaves, so a client can hear before the release commits. A bound
 * far below the leases, so what is read is the releases and not the reaper's work.
 */
export async function readTables(store: PgStore, options: { settledWithinMs?: number } = {}): Promise<Tables> {
  const until = performance.now() + (options.settledWithinMs ?? 0);
  while (performance.now() < until && (await inFlightRows(store)) > 0)
    await new Promise((r) => setTimeout(r, 20));
  const client = await store.db.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const accounts = new Map<string, AccountRowSnap>();
    const byId = new Map<number, AccountRowSnap>();
    for (const a of (
      await client.query<{ id: number; name: string; balance: number; held: number }>(
        'SELECT id, name, balance, held FROM accounts ORDER BY id',
      )
    ).rows) {
      const snap = { ...a, credited: 0, charges: 0 };
      accounts.set(a.name, snap);
      byId.set(a.id, snap);
    }
    const chargeRequestIds = new Map<string, { accountId: number; rows: number }>();
    for (const r of (
      await client.query<{ account_id: number; delta: number; kind: string; request_id: string | null }>(
        'SELECT account_id, delta, kind, request_id FROM ledger ORDER BY id',
      )
    ).rows) {
      const account = byId.get(r.account_id)!;
      if (r.kind !== 'rates') {
        account.credited += r.delta;
        continue;
      }
      if (r.delta !== -1) throw new Error(`a rates ledger row of ${r.delta}`);
      account.charges++;
      const id = r.request_id ?? '(null)';
      const seen = chargeRequestIds.get(id);
      chargeRequestIds.set(id, { accountId: r.account_id, rows: (seen?.rows ?? 0) + 1 });
    }
    const idempotency = (
      await client.query<{
        account_id: number;
        idem_key: string;
        status: number | null;
        body: string | null;
        request_id: string | null;
      }>('SELECT account_id, idem_key, status, body, request_id FROM idempotency')
    ).rows.map((r) => ({
      accountId: r.account_id,
      key: r.idem_key,
      status: r.status,
      body: r.body,
      requestId: r.request_id,
    }));
    const holds = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM holds')).rows[0]!.n;
    await client.query('COMMIT');
    return { accounts, chargeRequestIds, idempotency, holds };
  } finally {
    client.release();
  }
}

/** Holds and running claims: rows that only calls in flight (or dead instances) leave. */
async function inFlightRows(store: PgStore): Promise<number> {
  const row = await store.db.first<{ n: number }>(
    `SELECT (SELECT count(*) FROM holds) + (SELECT count(*) FROM idempotency WHERE status IS NULL) AS n`,
  );
  return row!.n;
}

/** Balance holds currently counted, over all accounts (accounts.held). */
export async function heldTotal(store: PgStore): Promise<number> {
  const row = await store.db.first<{ n: number }>('SELECT coalesce(sum(held), 0)::int AS n FROM accounts');
  return row!.n;
}

/** Fisher–Yates with the suite's seeded generator (crash-soak.ts prng). */
export function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * A body per n: replaying the wrong record, or charging the wrong one, would not go unnoticed. One sandbox
 * carrier per call: what is proved is the bookkeeping, and eight simulator calls per request would only
 * spend the 2 cores on HTTP between a process and itself.
 */
export function shipmentBody(n: number): string {
  return JSON.stringify({
    ...SHIPMENT,
    parcel: { ...SHIPMENT.parcel, weight_grams: 500 + (n % 40) * 250 },
    carriers: ['cdek'],
  });
}

/**
 * The money oracle over what clients received and what the tables hold, for the accounts given:
 *  - every 200 a client received is a `rates` ledger row of its account, exactly one, with its request_id;
 *  - every `rates` row was answered to some client (a 200 seen), so the ledger has no charge nobody got;
 *  - balance = what was credited − the `rates` rows, and the answered balances are exactly credited−1 down
 *    to the balance, each once: the debits took turns, none saw another's balance;
 *  - every stored reply is a charge and every keyed charge has its stored reply; no hold and no claim is left.
 */
export function checkCharges(
  tables: Tables,
  seen: ReadonlyArray<{ account: PreparedAccount; reply: Reply | undefined }>,
): void {
  const answered = new Map<number, Map<string, number>>();
  for (const { account, reply } of seen) {
    if (reply?.kind !== 'response' || reply.status !== 200) continue;
    const body = JSON.parse(reply.text) as { request_id: string; balance_remaining: number };
    const charge = tables.chargeRequestIds.get(body.request_id);
    expect(charge, `the 200 ${body.request_id} is in the ledger`).toEqual({ accountId: account.id, rows: 1 });
    const mine = answered.get(account.id) ?? new Map<string, number>();
    mine.set(body.request_id, body.balance_remaining);
    answered.set(account.id, mine);
  }
  for (const account of new Set(seen.map((s) => s.account))) {
    const snap = tables.accounts.get(account.name)!;
    const mine = answered.get(account.id) ?? new Map<string, number>();
    expect(snap.held, `${account.name}: no hold left`).toBe(0);
    expect(snap.balance, `${account.name}: balance = credited − charges`).toBe(snap.credited - snap.charges);
    expect(mine.size, `${account.name}: every charge was answered`).toBe(snap.charges);
    const balances = [...mine.values()].sort((a, b) => b - a);
    expect(balances).toEqual(Array.from({ length: snap.charges }, (_, i) => snap.credited - 1 - i));
    const records = tables.idempotency.filter((r) => r.accountId === account.id);
    expect(records.filter((r) => r.status === null).map((r) => r.key), 'no claim left').toEqual([]);
    for (const r of records)
      expect(tables.chargeRequestIds.get(r.requestId!)?.accountId, `record ${r.key} is a charge`).toBe(
        account.id,
      );
  }
  expect(tables.holds).toBe(0);
}
