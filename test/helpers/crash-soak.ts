// Pieces of the crash soak (test/reliability/crash-soak.test.ts): a `serve` child that can be SIGKILLed and
// restarted on the same folder, a rates client that records what the caller actually saw (including "the
// connection died, outcome unknown"), and a read-only snapshot of the ledger taken with plain SQL, so that
// the oracle does not share code (or bugs) with core/store.
import { SERVER_KEY } from './serve-process';
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { isDatabaseUrl } from '../../core/store/company';

/** mulberry32: tiny, seedable, good enough to pick kill moments; the same seed gives the same schedule. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
export function between(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// The serve child

export interface ServeChild {
  proc: ChildProcess;
  port: number;
  /** The last lines of stderr, for failure messages: a serve that refuses to restart says why there. */
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every child ever started, so that cleanup can kill whatever a failed test left running. */
export const children = new Set<ChildProcess>();

const SERVE_START_TIMEOUT_MS = 30_000;
const STDERR_LINES_KEPT = 200;

/**
 * `npm run serve` without the npm wrapper, so that SIGKILL hits the server itself and not a shell; `where` is
 * a data folder or a company database (postgres://…).
 */
export async function startServe(where: string, env: Record<string, string>): Promise<ServeChild> {
  const store = isDatabaseUrl(where) ? ['--database', where] : ['--data-dir', where];
  const proc = spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', ...store, '--port', '0'], {
    // A company database needs a server key: the suite's own (serve-process.ts), one for every restart.
    env: { ...process.env, ...(isDatabaseUrl(where) ? { RATEDESK_SERVER_KEY: SERVER_KEY } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => {
      children.delete(proc);
      resolve({ code, signal });
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
      reject(new Error(`serve printed no URL within ${SERVE_START_TIMEOUT_MS} ms:\n${stderr.join('\n')}`));
    }, SERVE_START_TIMEOUT_MS);
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`serve exited (code ${code}, signal ${signal}) before listening:\n${stderr.join('\n')}`),
      );
    });
  });
  return { proc, port: Number(new URL(url).port), stderr, exited };
}

/**
 * SIGKILL and wait until the child is reaped: the restarted serve takes the folder lock over only when the
 * pid in serve.lock is no longer alive, and an unreaped zombie still is.
 */
export async function killHard(child: ServeChild): Promise<void> {
  child.proc.kill('SIGKILL');
  await child.exited;
}

export async function stopGracefully(child: ServeChild): Promise<number | null> {
  child.proc.kill('SIGTERM');
  return (await child.exited).code;
}

/** Cleanup for afterEach/afterAll: SIGKILL whatever is still running and wait for it to be gone. */
export async function killAllChildren(): Promise<void> {
  const running = [...children];
  await Promise.all(
    running.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve();
          p.once('exit', () => resolve());
          p.kill('SIGKILL');
        }),
    ),
  );
  children.clear();
}

// ---------------------------------------------------------------------------------------------------------
// The client

/** What the caller saw: a whole response, or a connection that died (the request may or may not have run). */
export type Outcome =
  | {
      kind: 'response';
      status: number;
      text: string;
      requestIdHeader: string | undefined;
      replayed: boolean;
    }
  | { kind: 'lost'; error: string };

export interface RatesCall {
  port: number;
  agent: Agent;
  secret: string;
  idempotencyKey: string;
  body: string;
  timeoutMs: number;
  /** Give up after this long (the client closes its connection), like an impatient integration would. */
  abortAfterMs?: number;
}

/**
 * POST /v1/rates. Never rejects: a socket error, a response cut short, or a timeout is `lost`. A response
 * counts only when its body arrived complete (Content-Length reached), because a half-read 200 is not a
 * 200 the client could act on.
 */
export function postRates(call: RatesCall): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (o: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: call.port,
        method: 'POST',
        path: '/v1/rates',
        agent: call.agent,
        headers: {
          Authorization: `Bearer ${call.secret}`,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(call.body)),
          'Idempotency-Key': call.idempotencyKey,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        // IncomingMessage emits 'error' only when someone listens; without these two, a response cut by the
        // kill would leave this promise pending forever.
        res.on('error', (e) => settle({ kind: 'lost', error: `response: ${e.message}` }));
        res.on('close', () => {
          if (!res.complete) settle({ kind: 'lost', error: 'response cut short' });
        });
        res.on('end', () => {
          const idHeader = res.headers['x-request-id'];
          settle({
            kind: 'response',
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            requestIdHeader: typeof idHeader === 'string' ? idHeader : undefined,
            replayed: res.headers['idempotent-replayed'] === 'true',
          });
        });
      },
    );
    const giveUp = call.abortAfterMs ?? call.timeoutMs;
    const timer = setTimeout(() => {
      req.destroy(
        new Error(call.abortAfterMs !== undefined ? 'client gave up' : `no answer within ${giveUp} ms`),
      );
    }, giveUp);
    req.on('error', (e: NodeJS.ErrnoException) => settle({ kind: 'lost', error: e.code ?? e.message }));
    req.end(call.body);
  });
}

/** The fields of a 200 body the oracle uses; anything else in it is compared byte for byte only. */
export interface RatesOk {
  request_id: string;
  balance_remaining: number;
}

export function parseOk(text: string): RatesOk | undefined {
  try {
    const v = JSON.parse(text) as Partial<RatesOk>;
    if (typeof v.request_id === 'string' && typeof v.balance_remaining === 'number')
      return { request_id: v.request_id, balance_remaining: v.balance_remaining };
  } catch {
    // not JSON: the caller reports the raw text
  }
  return undefined;
}

export function errorCode(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof v.error?.code === 'string' ? v.error.code : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The ledger as the file holds it

export interface AccountSnap {
  id: number;
  name: string;
  balance: number;
  ledgerSum: number;
  /** Sum of the non-`rates` rows (opening balance, top-ups): what the account had before any call. */
  credited: number;
  /** `rates` rows (each must be exactly −1). */
  charges: number;
}

export interface ChargeRow {
  ledgerId: number;
  accountId: number;
  delta: number;
  requestId: string | null;
  /** The balance right after this row, from the running sum of the ledger in id order. */
  balanceAfter: number;
}

export interface IdemRow {
  accountId: number;
  key: string;
  status: number;
  body: string;
  requestId: string;
}

export interface Snapshot {
  integrity: string;
  accounts: Map<string, AccountSnap>;
  /** `rates` ledger rows by request_id (null ids under "null"). */
  charges: ChargeRow[];
  chargeByRequestId: Map<string, ChargeRow>;
  /** By `${accountId}\u0000${key}`. */
  idempotency: Map<string, IdemRow>;
}

export const idemId = (accountId: number, key: string): string => `${accountId}\u0000${key}`;

/**
 * Opens the data file read-only (a second connection; the server may be running) and reads everything in
 * one read transaction, so that the figures are one consistent state of the file.
 */
export function snapshot(dbPath: string): Snapshot {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.transaction((): Snapshot => {
      const integrity = db.pragma('integrity_check', { simple: true }) as string;
      const accounts = new Map<string, AccountSnap>();
      for (const a of db.prepare('SELECT id, name, balance FROM accounts ORDER BY id').all() as Array<{
        id: number;
        name: string;
        balance: number;
      }>) {
        accounts.set(a.name, { ...a, ledgerSum: 0, credited: 0, charges: 0 });
      }
      const byId = new Map([...accounts.values()].map((a) => [a.id, a]));
      const charges: ChargeRow[] = [];
      const chargeByRequestId = new Map<string, ChargeRow>();
      const rows = db
        .prepare('SELECT id, account_id, delta, kind, request_id FROM ledger ORDER BY id')
        .all() as Array<{
        id: number;
        account_id: number;
        delta: number;
        kind: string;
        request_id: string | null;
      }>;
      for (const r of rows) {
        const acc = byId.get(r.account_id);
        if (!acc) continue;
        acc.ledgerSum += r.delta;
        if (r.kind !== 'rates') {
          acc.credited += r.delta;
          continue;
        }
        acc.charges += 1;
        const row: ChargeRow = {
          ledgerId: r.id,
          accountId: r.account_id,
          delta: r.delta,
          requestId: r.request_id,
          balanceAfter: acc.ledgerSum,
        };
        charges.push(row);
        if (r.request_id !== null) chargeByRequestId.set(r.request_id, row);
      }
      const idempotency = new Map<string, IdemRow>();
      for (const r of db
        .prepare('SELECT account_id, idem_key, status, body, request_id FROM idempotency')
        .all() as Array<{
        account_id: number;
        idem_key: string;
        status: number;
        body: string;
        request_id: string;
      }>) {
        idempotency.set(idemId(r.account_id, r.idem_key), {
          accountId: r.account_id,
          key: r.idem_key,
          status: r.status,
          body: r.body,
          requestId: r.request_id,
        });
      }
      return { integrity, accounts, charges, chargeByRequestId, idempotency };
    })();
  } finally {
    db.close();
  }
}
