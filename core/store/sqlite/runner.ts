// How a slice of the SQLite store runs its repository's statements (store.ts implements it): a slice module
// (users.ts, warehouses.ts, audit.ts, …) builds its port object from its repository and these.
import type { ChangeTopic } from '../port';

export interface SqliteRunner {
  /** Outside a transaction: WAL gives each statement a consistent snapshot. */
  read<T>(fn: () => T): Promise<T>;
  /** One BEGIN IMMEDIATE transaction now, retried while another process holds the lock. */
  write<T>(changed: ReadonlySet<ChangeTopic> | null, fn: () => T): Promise<T>;
  /** Queued into the next group commit (settles after its COMMIT). */
  grouped<T>(changed: ReadonlySet<ChangeTopic> | null, fn: () => T): Promise<T>;
}
