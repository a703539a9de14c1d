// A company server for the proof test (test/reliability/company-server.test.ts): N `serve` processes on one
// PostgreSQL database, as an operator runs them, each killable with SIGKILL and restartable on the same
// database. The test's own store connection prepares accounts and keys (the same operations the admin CLI
// runs); company-ledger.ts reads the tables afterwards.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { createAccount, createKey, setLimits, writeSetting } from '../../core/operations';
import { openPgStore, type PgStore } from '../../core/store/postgres';
import { SHIPMENT } from './service';

/**
 * The server key of this run's company databases (a company database needs one: docs/operations.md, "The
 * server key"); every instance and admin command of the run is given the same.
 */
export const SERVER_KEY = randomBytes(32).toString('base64');

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
  children: Set<ChildProcess>,
): Promise<Instance> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'core/cli/serve.ts', '--database', databaseUrl, '--port', '0', '--no-warm-up'],
    { env: { ...process.env, RATEDESK_SERVER_KEY: SERVER_KEY, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(proc);
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      children.delete(proc);
      resolve();
    }),
  );
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => {
    stderr.push(l);
    if (stderr.length > STDERR_LINES_KEPT) stderr.shift();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(
        new Error(`instance ${index} printed no URL within ${START_TIMEOUT_MS} ms:\n${stderr.join('\n')}`),
      );
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
  /** Every process started and not yet gone, a restart still starting included: close() ends them all. */
  const children = new Set<ChildProcess>();
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
      const instance = await startInstance(index, databaseUrl, env, children);
      instances[index] = instance;
      return instance;
    },
    async close() {
      await Promise.all(instances.map(stop));
      await Promise.all(
        [...children].map((proc) => {
          const gone = new Promise((resolve) => proc.once('exit', resolve));
          proc.kill('SIGKILL');
          return gone;
        }),
      );
      await store.close();
    },
  };
  try {
    await options.prepare?.(store);
    instances.push(
      ...(await Promise.all(
        Array.from({ length: options.instances }, (_, i) => startInstance(i, databaseUrl, env, children)),
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
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RATEDESK_SERVER_KEY: SERVER_KEY } },
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

/**
 * One request on the instance's keep-alive agent. Never rejects: a reset or a timeout is `lost`. A kept-alive
 * socket the server closed as idle just as it was reused fails with ECONNRESET before the server read the
 * request (Node's http docs, "reusedSocket"): that one is sent again once on a new connection, as a client
 * would. CI's clean-clone run lost two such calls on a busy machine.
 */
export async function send(call: Call): Promise<Reply> {
  const { reusedSocket, ...first } = await sendOnce(call, call.instance.agent);
  if (first.kind === 'lost' && reusedSocket === true && first.error === 'ECONNRESET') {
    const { reusedSocket: _again, ...second } = await sendOnce(call, false);
    return second;
  }
  return first;
}

function sendOnce(call: Call, agent: Agent | false): Promise<Reply & { reusedSocket?: boolean }> {
  const { instance, body } = call;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (reply: Reply & { reusedSocket?: boolean }): void => {
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
        agent,
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
    req.on('error', (e: NodeJS.ErrnoException) =>
      settle({ kind: 'lost', error: e.code ?? e.message, reusedSocket: req.reusedSocket }),
    );
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
