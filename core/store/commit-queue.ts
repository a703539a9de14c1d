// Group commit: with synchronous=FULL every COMMIT waits for an fsync of the WAL. Ops queued during one
// event-loop turn share one transaction, so N concurrent requests cost one fsync, and each caller is
// answered only after that COMMIT returned (its write is on disk before the HTTP response is sent).
import type { Db } from './open';

interface PendingOp {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitter {
  private pending: PendingOp[] = [];
  private scheduled = false;
  private readonly batch: (
    ops: PendingOp[],
  ) => Array<{ ok: true; value: unknown } | { ok: false; error: unknown }>;
  /** Batches committed so far and ops in them: the benchmark reports the average batch size. */
  readonly stats = { batches: 0, ops: 0 };

  private readonly grouping: boolean;
  private readonly single: (fn: () => unknown) => unknown;

  /** `grouping: false` commits every op on its own (one fsync each): the benchmark's comparison point. */
  constructor(db: Db, options: { grouping?: boolean } = {}) {
    this.grouping = options.grouping ?? true;
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
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits whatever is queued now (also used on shutdown). */
  flush(): void {
    this.scheduled = false;
    const ops = this.pending;
    this.pending = [];
    if (ops.length === 0) return;
    let results: ReturnType<typeof this.batch>;
    try {
      results = this.batch(ops);
    } catch (error) {
      for (const op of ops) op.reject(error);
      return;
    }
    this.stats.batches += 1;
    this.stats.ops += ops.length;
    results.forEach((r, i) => (r.ok ? ops[i]!.resolve(r.value) : ops[i]!.reject(r.error)));
  }
}
