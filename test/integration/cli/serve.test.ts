// The headless host as users run it: `serve` and `admin` as separate processes on one data folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../core/store';
import { rawRequest, SHIPMENT } from '../../helpers/service';

const dirs: string[] = [];
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ratedesk-serve-'));
  dirs.push(d);
  return d;
}

interface Serving {
  proc: ChildProcess;
  url: string;
  port: number;
  stderr: string[];
}

async function serve(dir: string, env: Record<string, string> = {}): Promise<Serving> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dir, '--port', '0'],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  procs.push(proc);
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('\n')}`)));
  });
  return { proc, url, port: Number(new URL(url).port), stderr };
}

function admin(
  dir: string,
  args: string[],
  input?: string,
): { status: number; json: unknown; stderr: string } {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'core/cli/admin.ts', '--data-dir', dir, '--json', ...args],
    {
      input: input ?? '',
      encoding: 'utf8',
    },
  );
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status ?? -1, json, stderr: r.stderr };
}

const post = (port: number, key: string, headers: Record<string, string> = {}) =>
  rawRequest(port, {
    method: 'POST',
    path: '/v1/rates',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(SHIPMENT),
  });

describe('npm run serve', () => {
  it('creates a fresh data folder, prints one URL line, says it is in sandbox mode, stops on SIGTERM', async () => {
    const dir = tempDir();
    const s = await serve(dir);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.stderr.join('\n')).toMatch(/SANDBOX MODE/);
    const exit = new Promise<number | null>((r) => s.proc.once('exit', (code) => r(code)));
    s.proc.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('refuses a non-loopback bind without --allow-remote', () => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', tempDir(), '--host', '0.0.0.0'],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0/);
  });

  it('admin changes from another process apply on the next request: key, top-up, revocation, settings', async () => {
    const dir = tempDir();
    const s = await serve(dir);
    const created = admin(dir, ['keys', 'create', '--account', 'default', '--name', 'cli']);
    expect(created.status).toBe(0);
    const { id, secret } = created.json as { id: string; secret: string };
    const get = (path: string) =>
      rawRequest(s.port, { path, headers: { Authorization: `Bearer ${secret}` } });

    const b1 = await get('/v1/balance');
    expect(b1.json).toEqual({ balance: 100 });
    expect(b1.headers['x-ratedesk-sandbox']).toBe('true');

    expect(admin(dir, ['accounts', 'topup', 'default', '--requests', '500']).status).toBe(0);
    const b2 = await get('/v1/balance');
    expect(b2.json).toEqual({ balance: 600 });
    expect(b2.headers['ratelimit-policy']).toBe('"account";q=20;w=2');

    expect(admin(dir, ['settings', 'set', 'sandbox', 'off']).status).toBe(0);
    const b3 = await get('/v1/balance');
    expect(b3.headers['x-ratedesk-sandbox']).toBeUndefined();

    expect(admin(dir, ['keys', 'revoke', id]).status).toBe(0);
    const b4 = await get('/v1/balance');
    expect(b4.status).toBe(401);
    expect(b4.json.error.code).toBe('api_key_revoked');
  });

  it('kill -9 in the middle of rates calls loses nothing and double-charges nothing; retries replay or run once', async () => {
    const dir = tempDir();
    let s = await serve(dir, { RATEDESK_SIMULATOR_LATENCY_MS: '300' });
    const key = (
      admin(dir, ['keys', 'create', '--account', 'default', '--name', 'crash']).json as { secret: string }
    ).secret;
    expect(admin(dir, ['accounts', 'limits', 'default', '--rps', '1000', '--burst', '1000']).status).toBe(0);

    // Phase 1: 10 requests complete; 10 more are in flight when the server is killed.
    const done = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(s.port, key, { 'Idempotency-Key': `k${i}` })),
    );
    expect(done.every((r) => r.status === 200)).toBe(true);
    const inflight = Array.from({ length: 10 }, (_, i) =>
      post(s.port, key, { 'Idempotency-Key': `k${10 + i}` }).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 100));
    s.proc.kill('SIGKILL');
    const lost = await Promise.all(inflight);
    const answeredBeforeKill = lost.filter((r) => r && r.status === 200).length;

    // Phase 2: restart on the same folder (the stale lock of the dead process is taken over) and retry all 20.
    s = await serve(dir, { RATEDESK_SIMULATOR_LATENCY_MS: '10' });
    const retries = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(s.port, key, { 'Idempotency-Key': `k${i}` })),
    );
    expect(retries.every((r) => r.status === 200)).toBe(true);
    const replayed = retries.filter((r) => r.headers['idempotent-replayed'] === 'true').length;
    expect(replayed).toBe(10 + answeredBeforeKill);
    retries.slice(0, 10).forEach((r, i) => expect(r.text).toBe(done[i]!.text));

    const term = new Promise((r) => s.proc.once('exit', r));
    s.proc.kill('SIGTERM');
    await term;
    const store = openStore(join(dir, 'ratedesk.db'));
    const charged = store.db.prepare("SELECT COUNT(*) FROM ledger WHERE kind = 'rates'").pluck().get();
    expect(charged).toBe(20);
    expect((await store.accounts.byName('default'))!.balance).toBe(80);
    expect(await store.accounts.invariantViolations()).toEqual([]);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    await store.close();
  });
});
