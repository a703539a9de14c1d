// The SQLite implementation of the port's change feed. Two kinds of change reach the subscribers:
//  - this process's own writes: every write method of the store names its topics once it has committed
//    (store.ts), so a revocation by the desk or a charge reaches the key cache before the caller hears back;
//  - commits by other processes (the admin CLI): SQLite's `PRAGMA data_version`, which changes when another
//    connection committed. Which tables they touched is unknown, so every topic is announced. Reading it takes
//    a read transaction, two to three microseconds under load, a tenth of a GET /v1/balance, so the listener
//    reads it once per batch of requests that one poll of the event loop delivered (beginRequest), and any
//    other caller (poll) on every call. A request sent after a commit finished cannot be in a batch that was
//    already being handled when the commit finished: HTTP/1.1 clients wait for each response before they
//    send the next request on a connection, and a new connection is read in a later poll.
// Earlier versions patched better-sqlite3's prepare/exec/transaction to count writes; the store now says what
// it wrote instead.
import { CHANGE_TOPICS, type ChangeFeed, type ChangeTopic } from '../port';
import { isBusyError } from './busy';
import type { Db } from './open';

type Listener = (topics: ReadonlySet<ChangeTopic>) => void;

const EVERYTHING: ReadonlySet<ChangeTopic> = new Set(CHANGE_TOPICS);

export class SqliteChangeFeed implements ChangeFeed {
  /** One process serves a data file and announces its own charges (store.ts). */
  readonly announcesBalances = true;
  private readonly listeners = new Set<Listener>();
  private readonly readDataVersion: () => number;
  private dataVersion: number;
  private batchChecked = false;
  private readonly endBatch = (): void => {
    this.batchChecked = false;
  };

  constructor(db: Db) {
    const dv = db.prepare('PRAGMA data_version').pluck();
    this.readDataVersion = () => dv.get() as number;
    this.dataVersion = this.readDataVersion();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  beginRequest(): void {
    if (this.batchChecked) return;
    this.batchChecked = true;
    // Immediates run right after the poll phase: the next batch checks again.
    setImmediate(this.endBatch);
    this.checkForeign();
  }

  /** Done when it returns: data_version is read synchronously. */
  poll(): Promise<void> {
    if (!this.batchChecked) this.checkForeign();
    return Promise.resolve();
  }

  /** This process committed a write touching `topics`. */
  wrote(topics: ReadonlySet<ChangeTopic>): void {
    for (const listener of this.listeners) listener(topics);
  }

  private checkForeign(): void {
    let dv: number;
    try {
      dv = this.readDataVersion();
    } catch (error) {
      // A read that cannot begin now leaves the caches as they are for this batch; the next one asks again.
      if (isBusyError(error)) return;
      throw error;
    }
    if (dv === this.dataVersion) return;
    this.dataVersion = dv;
    this.wrote(EVERYTHING);
  }
}
