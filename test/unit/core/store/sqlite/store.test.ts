// SqliteStore's own behaviour behind the port where another process holds the data file's write lock: what
// waits, what fails at once, and what is written later (the contract suite covers the port's rules).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreBusyError, type SqliteStore } from '../../../../../core/store';
import type { CarrierHealthRow } from '../../../../../core/store/port';
import { holdWriteLock } from '../../../../helpers/lock-holder';

let dir: string;
let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function open(): SqliteStore {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-sqlite-store-'));
  store = openStore(join(dir, 'ratedesk.db'));
  store.startServing();
  return store;
}

const row = (status: CarrierHealthRow['status'], lastError: string | null): CarrierHealthRow => ({
  code: 'cdek',
  status,
  consecutive_failures: status === 'available' ? 0 : 3,
  last_error: lastError,
  last_success_at: null,
  last_failure_at: null,
  latency_ms_median: null,
});

describe('SqliteStore behind a lock held by another process', () => {
  it('keeps the latest carrier health row: one queued while busy never overwrites a later one', async () => {
    const s = open();
    const lock = await holdWriteLock(join(dir, 'ratedesk.db'), 150);
    // Busy: queued for the group commit, which retries until the lock is gone.
    const queued = s.carrierHealth.upsert(row('unavailable', 'timeout'));
    await lock.released;
    // The carrier recovered and its row went straight in, before the queued one's retry.
    await s.carrierHealth.upsert(row('available', null));
    await queued;
    expect((await s.carrierHealth.all()).map((r) => r.status)).toEqual(['available']);
  });

  it('writes the latest queued carrier health row once the lock is gone', async () => {
    const s = open();
    const lock = await holdWriteLock(join(dir, 'ratedesk.db'), 150);
    const first = s.carrierHealth.upsert(row('unavailable', 'timeout'));
    const second = s.carrierHealth.upsert(row('unavailable', 'HTTP 503'));
    await Promise.all([first, second, lock.released]);
    expect((await s.carrierHealth.all()).map((r) => r.last_error)).toEqual(['HTTP 503']);
  });

  it('fails a location cache write at once instead of waiting for the lock (a quote must not wait for it)', async () => {
    const s = open();
    const lock = await holdWriteLock(join(dir, 'ratedesk.db'), 1_500);
    const started = performance.now();
    await expect(
      s.locationCache.put({
        namespace: 'n',
        want: 'code',
        key: 'k',
        value: 'v',
        nowMs: Date.now(),
        ttlMs: 1000,
      }),
    ).rejects.toBeInstanceOf(StoreBusyError);
    // A write that retried would take at least the 1 s bound (busy.ts BUSY_RETRY_BOUND_MS) before failing.
    expect(performance.now() - started).toBeLessThan(1_000);
    await lock.released;
  });
});
