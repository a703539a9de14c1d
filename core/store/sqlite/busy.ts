// A data file whose write lock another process holds (a long admin transaction, an import). better-sqlite3 is
// synchronous, so SQLite's busy timeout is a wait on the event loop: with the 5 s timeout every request of a
// serving process stood still for 5 s behind one write, and then failed (docs/reliability.md, #16 item 4).
// A process that serves requests therefore waits only a few milliseconds inside SQLite and retries
// asynchronously, with back-off, up to a bound; past the bound the caller is told the store is busy.
import { StoreBusyError } from '../port';
import type { Db } from './open';

export { StoreBusyError };

/**
 * SQLite's own wait, on the event loop, for a lock held elsewhere: enough for another process's short
 * transaction to commit (the admin CLI's single writes take a millisecond or two), short enough that an
 * attempt that meets a long lock costs the other requests almost nothing. SQLite's busy handler sleeps 1 ms,
 * then 1 ms more, before giving up (sqlite3.c, sqliteDefaultBusyCallback).
 */
export const SERVING_BUSY_TIMEOUT_MS = 2;

/**
 * How long a write of a serving process is retried before its caller hears "busy": a charge, a desk change.
 * A chunked import holds the lock for tens of milliseconds at a time, so a write gets in well within this;
 * a lock held longer (an admin transaction left open) ends in 503 / a "try again" instead of a stalled loop.
 */
export const BUSY_RETRY_BOUND_MS = 1_000;

/** Pause before retry n (0-based): 2, 4, 8, then every 16 ms, so an importer's pause between chunks is hit. */
export function busyRetryDelayMs(attempt: number): number {
  return Math.min(16, 2 << Math.min(attempt, 4));
}

/** The serving process's setting, once the file is open and checked (start-up may wait the full 5 s). */
export function useServingBusyTimeout(db: Db): void {
  db.pragma(`busy_timeout = ${SERVING_BUSY_TIMEOUT_MS}`);
}

/**
 * SQLITE_BUSY and its extended codes (_SNAPSHOT, _RECOVERY, _TIMEOUT), from better-sqlite3's SqliteError or
 * our own StoreBusyError. A busy statement changed nothing: SQLite refused to start it.
 */
export function isBusyError(error: unknown): boolean {
  if (error instanceof StoreBusyError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Blocks this thread: only for a process that serves nothing meanwhile (the admin CLI between chunks). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs fn, and again after each busy failure with back-off, for up to `boundMs`; then throws StoreBusyError.
 * fn must be safe to run again after a busy failure: one transaction that SQLite refused to begin or commit.
 */
export async function retryWhileBusy<T>(fn: () => T | Promise<T>, boundMs = BUSY_RETRY_BOUND_MS): Promise<T> {
  const start = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      const waited = performance.now() - start;
      if (waited >= boundMs) throw new StoreBusyError(waited);
      await new Promise((resolve) => setTimeout(resolve, busyRetryDelayMs(attempt)));
    }
  }
}
