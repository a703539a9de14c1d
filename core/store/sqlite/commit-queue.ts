// Group commit: with synchronous=FULL every COMMIT waits for an fsync of the WAL. Ops queued during one
// event-loop turn share one transaction, so N concurrent requests cost one fsync, and each caller is
// answered only after that COMMIT returned (its write is on disk before the HTTP response is sent).
//
// A write lock held by another process (core/store/busy.ts): the batch's BEGIN IMMEDIATE waits only the short
// busy timeout, then the batch is tried again after a back-off, off the event loop, with whatever was queued
// meanwhile. SQLite refused the whole transaction (or rolled it back), so nothing of it happened and running
// the ops again is running them once. An op still not committed after the bound is rejected with
// StoreBusyError: a charge that could not commit is not charged, and its caller answers 503.
import { BUSY_RETRY_BOUND_MS, busyRetryDelayMs, isBusyError, StoreBusyError } from './busy';
import type { Db } from './open';

interface PendingOp {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** performance.now() when queued: the busy bound counts from here. */
  since: number;
}

export interface GroupCommitterOptions {
  /** `false` commits every op on its own (one fsync each): the benchmark's comparison point. */
  grouping?: boolean;
  /** How long an op is retried while the file is busy before it is rejected (ms). */
  busyBoundMs?: number;
}

export class GroupCommitter {
  private pending: PendingOp[] = [];
  private scheduled = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private busyAttempts = 0;
  private readonly batch: (
    ops: PendingOp[],
  ) => Array<{ ok: true; value: unknown } | { ok: false; error: unknown }>;
  /** Batches committed so far and ops in them: the benchmark reports the average batch size. */
  readonly stats = { batches: 0, ops: 0 };

  private readonly grouping: boolean;
  private readonly busyBoundMs: number;
  private readonly single: (fn: () => unknown) => unknown;

  constructor(db: Db, options: GroupCommitterOptions = {}) {
    this.grouping = options.grouping ?? true;
    this.busyBoundMs = options.busyBoundMs ?? BUSY_RETRY_BOUND_MS;
    this.single = (fn) => db.transaction(fn).immediate();
    // better-sqlite3 runs a nested transaction as a SAVEPOINT: one op that throws rolls back only itself.
    // Built once: db.transaction() per op would build four wrapper functions per charge.
    const savepoint = db.transaction((fn: () => unknown) => fn());
    const tx = db.transaction((ops: PendingOp[]) =>
      ops.map((op) => {
        try {
          return { ok: true as const, value: savepoint(op.fn) };
        } catch (error) {
          return { ok: false as const, error };
        }
      }),
    );
    this.batch = (ops) => tx.immediate(ops);
  }

  /** Runs fn (synchronous, inside a shared BEGIN IMMEDIATE transaction); settles after the COMMIT. */
  run<T>(fn: () => T): Promise<T> {
    if (!this.grouping) {
      try {
        const value = this.single(fn) as T;
        this.stats.batches += 1;
        this.stats.ops += 1;
        return Promise.resolve(value);
      } catch (error) {
        return Promise.reject(isBusyError(error) ? new StoreBusyError(0) : error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve: resolve as (v: unknown) => void, reject, since: performance.now() });
      // While backing off from a busy file, new ops wait for the retry instead of trying at once.
      if (!this.scheduled && this.retryTimer === null) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.commit(false);
        });
      }
    });
  }

  /** Commits whatever is queued now, once (shutdown): ops that meet a busy file are rejected, not retried. */
  flush(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.commit(true);
  }

  private commit(final: boolean): void {
    const ops = this.pending;
    this.pending = [];
    if (ops.length === 0) return;
    let results: ReturnType<typeof this.batch>;
    try {
      results = this.batch(ops);
    } catch (error) {
      if (isBusyError(error)) return this.busy(ops, final);
      for (const op of ops) op.reject(error);
      return;
    }
    this.busyAttempts = 0;
    this.stats.batches += 1;
    this.stats.ops += ops.length;
    results.forEach((r, i) => (r.ok ? ops[i]!.resolve(r.value) : ops[i]!.reject(r.error)));
  }

  /** The batch never began or was rolled back: retry it later, less the ops past their bound. */
  private busy(ops: PendingOp[], final: boolean): void {
    const now = performance.now();
    const waiting: PendingOp[] = [];
    for (const op of ops) {
      if (final || now - op.since >= this.busyBoundMs) op.reject(new StoreBusyError(now - op.since));
      else waiting.push(op);
    }
    this.pending = waiting.concat(this.pending);
    if (this.pending.length === 0) {
      this.busyAttempts = 0;
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.commit(false);
    }, busyRetryDelayMs(this.busyAttempts++));
  }
}
