// #16 item 4: another process holding the data file's write lock (a long admin transaction, a big import)
// against a running `serve`. Before the fix SQLite's 5 s busy timeout stood on serve's event loop: every
// request waited ~5 s behind one write, and the rates call that wrote got 500 "database is locked".
// Pass: GET /v1/balance keeps answering (it is a read and needs no lock); POST /v1/rates answers
// 503 service_unavailable with Retry-After within its bound, never 500, and charges nothing; the retry after
// the lock is released is charged once; a 100,000-row rate-card import holds the lock about one chunk at a
// time, and charges go through during it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestKey } from '../../core/keys/format';
import { holdWriteLock } from '../helpers/lock-holder';
import { probeWriteLock } from '../helpers/lock-probe';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { rawRequest, SHIPMENT, type HttpResult } from '../helpers/service';

const LOCK_MS = 6_000;
/** A charge waits up to 1 s for the lock (core/store/busy.ts), after the carriers answered: 1 s more of slack. */
const RATES_BOUND_MS = 3_000;
const BALANCE_CLIENTS = 4;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(ms: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
  };
}

function balance(s: ServeProcess): Promise<HttpResult> {
  return rawRequest(s.port, { path: '/v1/balance', headers: { Authorization: `Bearer ${s.key}` } });
}

function rates(s: ServeProcess, idempotencyKey?: string): Promise<HttpResult> {
  return rawRequest(s.port, {
    method: 'POST',
    path: '/v1/rates',
    headers: {
      Authorization: `Bearer ${s.key}`,
      'Content-Type': 'application/json',
      ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
    },
    body: JSON.stringify(SHIPMENT),
  });
}

/** BALANCE_CLIENTS clients calling GET /v1/balance, one request a millisecond each, until `until` resolves. */
async function balanceLoad(
  s: ServeProcess,
  until: Promise<unknown>,
): Promise<{ ms: number[]; bad: number[] }> {
  let done = false;
  void until.then(() => (done = true));
  const ms: number[] = [];
  const bad: number[] = [];
  await Promise.all(
    Array.from({ length: BALANCE_CLIENTS }, async () => {
      while (!done) {
        const start = performance.now();
        const r = await balance(s);
        ms.push(performance.now() - start);
        if (r.status !== 200) bad.push(r.status);
        // Paced under the account's 10,000/s limit (serve-process.ts), which a quiet machine can exceed.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }),
  );
  return { ms, bad };
}

describe('a write lock held by another process', () => {
  it('a 6 s lock: balance answers throughout, rates 503 + Retry-After within the bound, nothing charged; the retry after is charged once', async () => {
    const s = await startServeProcess();
    try {
      for (let i = 0; i < 3; i++) expect((await rates(s)).status).toBe(200);
      const quiet = balanceLoad(s, new Promise((r) => setTimeout(r, 1_500)));
      const quietMs = summary((await quiet).ms);
      const before = s.account();

      const lock = await holdWriteLock(join(s.dir, 'ratedesk.db'), LOCK_MS);
      const during = balanceLoad(s, lock.released);
      const answers: Array<{ key: string; ms: number; r: HttpResult }> = [];
      for (let i = 0; performance.now() - lock.lockedAt < LOCK_MS - 1_500; i++) {
        const start = performance.now();
        const key = `busy-store-${i}`;
        answers.push({ key, r: await rates(s, key), ms: performance.now() - start });
      }
      const { ms: duringMs, bad } = await during;
      const locked = summary(duringMs);
      const afterLock = s.account();

      // After the release: the same keys run once each, and a second retry replays for free.
      const retries = await Promise.all(answers.map((a) => rates(s, a.key)));
      const charged = s.account();
      const replays = await Promise.all(answers.map((a) => rates(s, a.key)));

      console.log(
        `balance quiet ${JSON.stringify(quietMs)} ms; during the ${LOCK_MS} ms lock ${JSON.stringify(locked)} ms; ` +
          `rates during the lock: ${answers.map((a) => `${a.r.status} in ${Math.round(a.ms)} ms`).join(', ')}`,
      );

      expect(bad).toEqual([]);
      // A read needs no lock: as fast as when the file is free, give or take a busy machine.
      expect(locked.p99).toBeLessThan(Math.max(10 * quietMs.p99, 50));
      expect(locked.max).toBeLessThan(1_000);
      expect(locked.n).toBeGreaterThan(100);

      expect(answers.length).toBeGreaterThan(0);
      for (const { r, ms } of answers) {
        expect(r.status).toBe(503);
        expect(r.json.error.code).toBe('service_unavailable');
        expect(String(r.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
        expect(ms).toBeLessThan(RATES_BOUND_MS);
      }
      expect(afterLock).toEqual(before);

      expect(retries.map((r) => r.status)).toEqual(answers.map(() => 200));
      expect(charged.balance).toBe(before.balance - answers.length);
      expect(charged.ledgerRows).toBe(before.ledgerRows + answers.length);
      expect(replays.map((r) => r.headers['idempotent-replayed'])).toEqual(answers.map(() => 'true'));
      expect(s.account()).toEqual(charged);
      expect(s.integrityCheck()).toBe('ok');
    } finally {
      await s.close();
    }
  }, 90_000);

  it('a 100,000-row rate-card import holds the lock about one chunk at a time; charges go through during it', async () => {
    await importUnderLoad('rate-card import of 100,000 rows', (s) => {
      const csv = join(s.dir, 'big.csv');
      writeFileSync(csv, bigRateCard(100_000));
      return ['ratecards', 'import', '--code', 'big', '--name', 'Big card', '--file', csv];
    });
  }, 180_000);

  it('a 100,000-key import holds the lock about one chunk at a time; charges go through during it', async () => {
    await importUnderLoad('key import of 100,000 keys', (s) => {
      const file = join(s.dir, 'keys.json');
      writeFileSync(file, bigKeyExport(100_000));
      return ['keys', 'import', '--file', file];
    });
  }, 180_000);
});

/**
 * Runs the admin CLI import `prepare` names against a running serve, while a client charges a rates call
 * every 20 ms and a probe measures the longest stretch the write lock stayed taken.
 */
async function importUnderLoad(what: string, prepare: (s: ServeProcess) => string[]): Promise<void> {
  const s = await startServeProcess();
  try {
    expect((await rates(s)).status).toBe(200);
    const args = prepare(s);
    const before = s.account();
    const probe = await probeWriteLock(join(s.dir, 'ratedesk.db'));
    const started = performance.now();
    const imported = admin(s.dir, args);
    let done = false;
    void imported.finally(() => (done = true));
    const answers: Array<{ status: number; ms: number }> = [];
    while (!done) {
      const start = performance.now();
      const r = await rates(s);
      answers.push({ status: r.status, ms: performance.now() - start });
      await new Promise((r) => setTimeout(r, 20));
    }
    const result = await imported;
    const importMs = performance.now() - started;
    const lock = await probe.stop();
    const ok = answers.filter((a) => a.status === 200).length;

    console.log(
      `${what}: ${Math.round(importMs)} ms (admin CLI start included); longest lock hold ` +
        `${Math.round(lock.longestMs)} ms over ${lock.holds} holds; rates during it: ${ok}/${answers.length} 200, ` +
        `latency ${JSON.stringify(summary(answers.map((a) => a.ms)))} ms`,
    );

    expect(result.code, result.stderr).toBe(0);
    // One chunk is ~40 ms on the development machine; a single transaction held it 1–6 s. The bound grows with
    // the import's own time (50 chunks: a twentieth of it is still far below one transaction's hold), so a
    // loaded machine that slows every chunk alike does not fail it (it read 14.6 s at load average 5.7).
    expect(lock.longestMs).toBeLessThan(Math.max(500, importMs / 20));
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(s.account().balance).toBe(before.balance - ok);
    expect(s.integrityCheck()).toBe('ok');
  } finally {
    await s.close();
  }
}

/** `rows` valid lines: 3-digit postal prefixes to 3-digit prefixes, one weight band each. */
function bigRateCard(rows: number): string {
  const lines = ['from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type'];
  for (let i = 0; i < rows; i++) {
    lines.push(`${100 + (i % 900)},${100 + Math.floor(i / 900)},30000,${300 + (i % 500)},1,3,door`);
  }
  return `${lines.join('\n')}\n`;
}

function admin(dir: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'core/cli/admin.ts', '--data-dir', dir, ...args],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** A key export document of `n` foreign keys for one new account. */
function bigKeyExport(n: number): string {
  const keys = Array.from({ length: n }, (_, i) => ({
    name: `imported ${i}`,
    account: 'imported',
    digest: digestKey(`a-foreign-key-of-the-busy-store-test-${i}`),
    prefix: 'a-foreig',
    last_four: String(i % 10_000).padStart(4, '0'),
    created_at: '2026-01-01T00:00:00.000Z',
    last_used_at: null,
    revoked_at: null,
    origin: 'imported',
  }));
  return JSON.stringify({
    format: 'ratedesk-keys',
    version: 1,
    exported_at: '2026-01-01T00:00:00.000Z',
    keys,
  });
}
