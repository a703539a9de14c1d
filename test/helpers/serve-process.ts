// `npm run serve` as users run it: a separate process on a data folder prepared here, so a suite can watch its
// memory, see it crash, and read its SQLite file from outside.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setLimits, topup } from '../../core/operations';
import { openDataFolder } from '../../core/store/data-folder';
import { createKey } from '../../core/operations';
import { balanceOf, fullIntegrityCheck, ledgerRowCount, openReadOnly } from './data-file';

const clock = { now: () => new Date() };

export interface ServeProcess {
  proc: ChildProcess;
  dir: string;
  /** The line serve printed: http://… or, over TLS, https://… */
  url: string;
  port: number;
  /** A key of the `default` account (a million requests, limits raised so that 402 and 429 hide nothing). */
  key: string;
  stderr: string[];
  /** Resident set size of the serving process, in bytes (Linux /proc). */
  rssBytes(): number;
  /** The `default` account's balance and ledger row count, read from the file through a read-only handle. */
  account(): { balance: number; ledgerRows: number };
  integrityCheck(): string;
  /** True while the process runs. */
  alive(): boolean;
  close(): Promise<void>;
}

export interface ServeProcessOptions {
  /** A data folder the test prepared (removed by close() like a fresh one). */
  dir?: string;
  /** More serve flags. */
  args?: string[];
  /** How serve listens (default `--port 0`; the company-network tests pass `--listen …`). */
  listen?: string[];
}

export async function startServeProcess(
  env: Record<string, string> = {},
  options: ServeProcessOptions = {},
): Promise<ServeProcess> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'ratedesk-serve-'));
  const store = openDataFolder(dir);
  await topup(store, clock, { account: 'default', requests: 1_000_000 });
  await setLimits(store, clock, { account: 'default', rps: 10_000, burst: 10_000 });
  const key = (await createKey(store, clock, { account: 'default', name: 'suite' })).secret;
  await store.close();

  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'core/cli/serve.ts',
      '--data-dir',
      dir,
      ...(options.listen ?? ['--port', '0']),
      ...(options.args ?? []),
    ],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('\n')}`)));
  });
  const file = openReadOnly(dir);
  return {
    proc,
    dir,
    url,
    port: Number(new URL(url).port),
    key,
    stderr,
    rssBytes() {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
    },
    account: () => ({ balance: balanceOf(file, 'default'), ledgerRows: ledgerRowCount(file, 'default') }),
    integrityCheck: () => fullIntegrityCheck(file),
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async close() {
      await file.close();
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
