// Real SQLite files in a fresh temp folder per test, and a clock the test controls.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openDataFolder } from '../../core/store/data-folder';
import { type WallClock } from '../../core/operations';
import type { SqliteStore } from '../../core/store';

export class TestClock implements WallClock {
  constructor(private ms = Date.parse('2025-03-01T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-admin-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A fresh data folder (migrated, `default` account seeded), closed after the test. The SQLite store itself, so
 * a test of the implementation can reach its connection (`db`) and repositories; it is a `Store` for the rest.
 */
export function freshFolder(clock: TestClock = new TestClock()): {
  store: SqliteStore;
  dir: string;
  clock: TestClock;
} {
  const dir = tempDir();
  const store = openDataFolder(dir, { clock });
  // Registered after tempDir's cleanup, so it runs first: close before the folder is removed.
  cleanups.push(() => store.close());
  return { store, dir, clock };
}
