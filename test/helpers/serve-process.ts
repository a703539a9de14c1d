// `npm run serve` as users run it: a separate process on a data folder prepared here, so a suite can watch its
// memory, see it crash, and read its SQLite file from outside; or, with `database`, `serve --database URL` on
// a company database (PostgreSQL) prepared the same way, read from outside through a store of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createKey, setLimits, topup } from '../../core/operations';
import { openCompanyStore } from '../../core/store/company';
import { openDataFolder } from '../../core/store/data-folder';
import type { Store } from '../../core/store/port';
import type { PgStore } from '../../core/store/postgres';
import { balanceOf, fullIntegrityCheck, ledgerRowCount, openReadOnly } from './data-file';

const clock = { now: () => new Date() };

interface ServeProcessBase {
  proc: ChildProcess;
  /** The line serve printed: http://… or, over TLS, https://… */
  url: string;
  port: number;
  /** A key of the `default` account (a million requests, limits raised so that 402 and 429 hide nothing). */
  key: string;
  stderr: string[];
  /** Resident set size of the serving process, in bytes (Linux /proc). */
  rssBytes(): number;
  /**
   * Memory after a full garbage collection (RSS and V8 heap in use, bytes): what the process retains. Only for a
   * process started with `gcProbe` (test/helpers/serve-gc-probe.ts).
   */
  collectedMemory(): Promise<{ rss: number; heap: number }>;
  /** True while the process runs. */
  alive(): boolean;
  close(): Promise<void>;
}

export interface ServeProcess extends ServeProcessBase {
  dir: string;
  /** The `default` account's balance and ledger row count, read from the file through a read-only handle. */
  account(): { balance: number; ledgerRows: number };
  integrityCheck(): string;
}

export interface CompanyServeProcess extends ServeProcessBase {
  /** The company database it serves (the caller made it and drops it). */
  database: string;
  /** The `default` account's balance and ledger row count, read through a store connection of the test's. */
  account(): Promise<{ balance: number; ledgerRows: number }>;
}

export interface ServeProcessOptions {
  /**
   * Serve this company database (postgres://…) with `--database` instead of a fresh data folder. Each start
   * tops `default` up by a million requests and adds a key of its own, so several instances can share it.
   */
  database: string;
}

let started = 0;

/** The server key of the company databases these processes serve (one per test run). */
export const SERVER_KEY = randomBytes(32).toString('base64');

/** Gives `default` a million requests, limits that never refuse, and a new key; the key's secret. */
async function prepare(store: Store): Promise<string> {
  await topup(store, clock, { account: 'default', requests: 1_000_000 });
  await setLimits(store, clock, { account: 'default', rps: 10_000, burst: 10_000 });
  // Key names are unique per account: one per start, for instances sharing a database.
  const name = `suite ${process.pid}-${started++}`;
  return (await createKey(store, clock, { account: 'default', name })).secret;
}

export interface ServeOptions {
  /** A data folder the test prepared (removed by close() like a fresh one). */
  dir?: string;
  /** More serve flags. */
  args?: string[];
  /** How serve listens (default `--port 0`; the company-network tests pass `--listen …`). */
  listen?: string[];
  /** Start through test/helpers/serve-gc-probe.ts, so that collectedMemory() can force a collection. */
  gcProbe?: boolean;
}

export function startServeProcess(
  env?: Record<string, string>,
  options?: ServeOptions,
): Promise<ServeProcess>;
export function startServeProcess(
  env: Record<string, string>,
  options: ServeOptions | undefined,
  company: ServeProcessOptions,
): Promise<CompanyServeProcess>;
export async function startServeProcess(
  env: Record<string, string> = {},
  options: ServeOptions = {},
  company?: ServeProcessOptions,
): Promise<ServeProcess | CompanyServeProcess> {
  const flags = [...(options.listen ?? ['--port', '0']), ...(options.args ?? [])];
  const entry = options.gcProbe
    ? ['--expose-gc', '--import', 'tsx', 'test/helpers/serve-gc-probe.ts']
    : ['--import', 'tsx', 'core/cli/serve.ts'];
  if (company) return startOnDatabase(env, flags, company.database, entry);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'ratedesk-serve-'));
  const store = openDataFolder(dir);
  const key = await prepare(store);
  await store.close();
  const base = await spawnServe(entry, ['--data-dir', dir, ...flags], env, key);
  const file = openReadOnly(dir);
  return {
    ...base,
    dir,
    account: () => ({ balance: balanceOf(file, 'default'), ledgerRows: ledgerRowCount(file, 'default') }),
    integrityCheck: () => fullIntegrityCheck(file),
    async close() {
      await file.close();
      await base.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startOnDatabase(
  env: Record<string, string>,
  listenArgs: string[],
  database: string,
  entry: string[],
): Promise<CompanyServeProcess> {
  const store = await openCompanyStore(database);
  try {
    const key = await prepare(store);
    // A company database needs a server key (docs/operations.md): the suite's own, unless the test gives one.
    const base = await spawnServe(
      entry,
      ['--database', database, ...listenArgs],
      { RATEDESK_SERVER_KEY: SERVER_KEY, ...env },
      key,
    );
    return {
      ...base,
      database,
      async account() {
        const row = await store.accounts.byName('default');
        if (!row) throw new Error('no account named default');
        // Ledger rows have no read on the port (no part of the core needs them): counted on the store's handle.
        const count = await (store as PgStore).db.first<{ n: number }>(
          'SELECT count(*) AS n FROM ledger WHERE account_id = $1',
          [row.id],
        );
        return { balance: row.balance, ledgerRows: count!.n };
      },
      async close() {
        await base.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function spawnServe(
  entry: string[],
  args: string[],
  env: Record<string, string>,
  key: string,
): Promise<ServeProcessBase> {
  const proc = spawn(process.execPath, [...entry, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  const probeWaiters: Array<(line: string) => void> = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => {
    if (l.startsWith('gc-probe')) probeWaiters.shift()?.(l);
    else stderr.push(l);
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('\n')}`)));
  });
  return {
    proc,
    url,
    port: Number(new URL(url).port),
    key,
    stderr,
    rssBytes() {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
    },
    async collectedMemory() {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('serve did not answer the gc probe in 30 s')),
          30_000,
        );
        probeWaiters.push((l) => {
          clearTimeout(timer);
          resolve(l);
        });
        proc.kill('SIGUSR2');
      });
      const m = /^gc-probe rss=(\d+) heap=(\d+)$/.exec(line);
      if (!m) throw new Error(`gc probe: ${line}`);
      return { rss: Number(m[1]), heap: Number(m[2]) };
    },
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async close() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
    },
  };
}
