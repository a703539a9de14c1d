import type { Db } from './open';

type Statement = ReturnType<Db['prepare']>;
type AnyFn = (...args: unknown[]) => unknown;
const STATEMENT_METHODS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * Lets in-memory copies of rows (the listener's key cache, the settings view) skip their query on the hot path
 * without serving a stale row. Two kinds of change are watched:
 *  - writes by this process, counted exactly: every statement that can write (`!stmt.readonly`), every exec()
 *    and the end of every transaction (a rollback undoes rows a cache may have read) bump a counter;
 *  - commits by other processes (the admin CLI): SQLite's `PRAGMA data_version`. Reading it takes a read
 *    transaction, two to three microseconds under load, a tenth of a GET /v1/balance. So the listener reads
 *    it once per batch of requests that one poll of the event loop delivered (beginRequest), and any other
 *    caller reads it on every call. A request sent after a commit finished cannot be in a batch that was
 *    already being handled when the commit finished: HTTP/1.1 clients wait for each response before they
 *    send the next request on a connection, and a new connection is read in a later poll.
 * Must be attached before any statement is prepared on the connection.
 */
export class ChangeWatch {
  private readonly readDataVersion: () => number;
  private dataVersion = -1;
  private foreignChanges = 0;
  private ownWrites = 0;
  private batchChecked = false;
  private readonly endBatch = (): void => {
    this.batchChecked = false;
  };

  constructor(db: Db) {
    const dv = db.prepare('PRAGMA data_version').pluck();
    this.readDataVersion = () => dv.get() as number;
    this.countWrites(db);
  }

  /** The listener, at the start of each request: one data_version read per poll batch of requests. */
  beginRequest(): void {
    if (this.batchChecked) return;
    this.batchChecked = true;
    // Immediates run right after the poll phase: the next batch checks again.
    setImmediate(this.endBatch);
    this.checkForeign();
  }

  /** A number that differs from every earlier one whenever the file may have changed since it was returned. */
  generation(): number {
    if (!this.batchChecked) this.checkForeign();
    return this.foreignChanges + this.ownWrites;
  }

  private checkForeign(): void {
    const dv = this.readDataVersion();
    if (dv !== this.dataVersion) {
      this.dataVersion = dv;
      this.foreignChanges += 1;
    }
  }

  private countWrites(db: Db): void {
    const bump = (): void => {
      this.ownWrites += 1;
    };
    const prepare = db.prepare.bind(db);
    db.prepare = ((source: string) => {
      const stmt = prepare(source);
      if (!stmt.readonly) countStatement(stmt, bump);
      return stmt;
    }) as Db['prepare'];
    const exec = db.exec.bind(db);
    db.exec = (source: string): Db => counted(() => exec(source), bump);
    const transaction = db.transaction.bind(db);
    db.transaction = ((fn: AnyFn) => {
      const tx = transaction(fn);
      const wrap =
        (run: AnyFn): AnyFn =>
        (...args) =>
          counted(() => run(...args), bump);
      return Object.assign(wrap(tx), {
        default: wrap(tx.default),
        deferred: wrap(tx.deferred),
        immediate: wrap(tx.immediate),
        exclusive: wrap(tx.exclusive),
      });
    }) as Db['transaction'];
  }
}

/** Counts before and after: an iterator writes after the call returns, and a write that throws may have changed rows. */
function counted<T>(run: () => T, bump: () => void): T {
  bump();
  try {
    return run();
  } finally {
    bump();
  }
}

function countStatement(stmt: Statement, bump: () => void): void {
  const target = stmt as unknown as Record<(typeof STATEMENT_METHODS)[number], AnyFn>;
  for (const method of STATEMENT_METHODS) {
    const original = target[method].bind(stmt);
    target[method] = (...args) => counted(() => original(...args), bump);
  }
}
