// Which statements of each kind of request meet a write lock held by another process (#16 item 4), found by
// timing every statement the service runs while a second process holds `BEGIN IMMEDIATE` on the data file.
// In WAL mode a read never waits for a writer, so a request that only reads must meet nothing; a write must
// meet the lock for a few milliseconds at most (the short busy timeout) and be retried off the event loop.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdWriteLock, type LockHolder } from '../../helpers/lock-holder';
import { SHIPMENT, startTestService, type HttpResult, type TestService } from '../../helpers/service';

interface Met {
  sql: string;
  ms: number;
  error: string | null;
}

/** A statement that took longer than this, or failed as busy, met the lock. */
const MET_MS = 20;
/** The short busy timeout plus slack for a busy 2-core machine (a pause of the collector inside a call). */
const BLOCK_BOUND_MS = 250;

const busy = (seen: Met[]): Met[] => seen.filter((m) => m.error?.startsWith('SQLITE_BUSY'));
const longest = (seen: Met[]): number => Math.max(0, ...seen.map((m) => m.ms));

const met: Met[] = [];
let recording = false;

// Every statement better-sqlite3 runs, transaction BEGIN/COMMIT included, is an instance of one class:
// timing its methods sees every wait, whoever prepared the statement.
type Method = (this: { source: string }, ...args: unknown[]) => unknown;
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<string, Method>;
for (const name of ['run', 'get', 'all'] as const) {
  const original = proto[name]!;
  proto[name] = function timed(this: { source: string }, ...args: unknown[]): unknown {
    const start = performance.now();
    let error: string | null = null;
    try {
      return original.apply(this, args);
    } catch (e) {
      error = (e as { code?: string }).code ?? String(e);
      throw e;
    } finally {
      const ms = performance.now() - start;
      if (recording && (ms > MET_MS || (error !== null && error.startsWith('SQLITE_BUSY')))) {
        met.push({ sql: this.source.replace(/\s+/g, ' ').trim().slice(0, 70), ms: Math.round(ms), error });
      }
    }
  };
}

let t: TestService;
let lock: LockHolder;
/** A key made before the lock and never used: its first request is due a last-use write. */
let unused: string;
const report: string[] = [];

beforeAll(async () => {
  t = await startTestService();
  // Warm: the carriers' location answers are cached and their health rows written before the lock.
  expect((await t.postRates(SHIPMENT)).status).toBe(200);
  expect((await t.get('/v1/balance')).status).toBe(200);
  unused = await t.newKey();
  lock = await holdWriteLock(join(t.dir, 'ratedesk.db'), 120_000);
}, 60_000);

afterAll(async () => {
  lock?.proc.kill('SIGKILL');
  await t?.close();
  console.log(`statements that met the lock:\n${report.join('\n')}`);
});

async function during(kind: string, send: () => Promise<HttpResult | unknown>): Promise<Met[]> {
  met.length = 0;
  recording = true;
  const start = performance.now();
  const answer = await send();
  const ms = Math.round(performance.now() - start);
  // Writes queued by the request (a key's last-use date) are retried after it was answered.
  await new Promise((r) => setTimeout(r, 300));
  recording = false;
  const a = answer as { status?: number; ok?: boolean; error?: { code: string } };
  const outcome = a.status ?? (a.ok ? 'ok' : a.error?.code);
  const bySql = new Map<string, Met[]>();
  for (const m of met) bySql.set(m.sql, [...(bySql.get(m.sql) ?? []), m]);
  const list = [...bySql].map(
    ([sql, all]) =>
      `${sql} ×${all.length} (longest ${Math.max(...all.map((m) => m.ms))} ms, ${all[0]!.error ?? 'slow'})`,
  );
  report.push(`- ${kind}: ${outcome} in ${ms} ms; ${list.length ? list.join('; ') : 'none'}`);
  return [...met];
}

describe('statements meeting a write lock held by another process', () => {
  it('GET /v1/balance with a key used this minute runs no statement that waits', async () => {
    const seen = await during('GET /v1/balance (key used this minute)', () => t.get('/v1/balance'));
    expect(busy(seen)).toEqual([]);
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });

  it('GET /v1/carriers runs no statement that waits', async () => {
    const seen = await during('GET /v1/carriers', () => t.get('/v1/carriers'));
    expect(busy(seen)).toEqual([]);
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });

  it('GET /v1/balance with a key not used for a minute: its last-use write never blocks the loop', async () => {
    const seen = await during('GET /v1/balance (last-use date due)', () => t.get('/v1/balance', unused));
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });

  it('POST /v1/rates: the charge meets the lock only for the short busy timeout, then 503', async () => {
    let answer: HttpResult | undefined;
    const seen = await during('POST /v1/rates', async () => {
      answer = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'busy-1' });
      return answer;
    });
    expect(answer?.status).toBe(503);
    expect(answer?.json.error.code).toBe('service_unavailable');
    expect(busy(seen).length).toBeGreaterThan(0);
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });

  it('POST /v1/rates on a route never asked before: its location and health writes never block the loop', async () => {
    const route = {
      ...SHIPMENT,
      from: { city: 'Санкт-Петербург', postal_code: '190000' },
      to: { city: 'Новосибирск', postal_code: '630000' },
    };
    const seen = await during('POST /v1/rates (new route)', () => t.postRates(route));
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });

  it('a desk write (accounts:topup) meets the lock only for the short busy timeout', async () => {
    let result: unknown;
    const seen = await during('desk accounts:topup', async () => {
      result = await t.service.desk.dispatch('accounts:topup', { account: 'default', requests: 1 });
      return result;
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(busy(seen).length).toBeGreaterThan(0);
    expect(longest(seen)).toBeLessThan(BLOCK_BOUND_MS);
  });
});
