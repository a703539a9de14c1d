// The embedded SQLite store: the only code that knows better-sqlite3 exists (eslint.config.js zones).
import type { SecretStore } from '../../settings/secrets';
import { migrate } from './migrate';
import { openDb, type OpenOptions } from './open';
import { SqliteStore } from './store';

export { DataFileRefusedError, type RefusalReason } from './migrate';
export { SqliteStore } from './store';

export interface StoreOptions extends OpenOptions {
  /** How secret settings are kept at rest (settings/secrets.ts); plain text by default. */
  secrets?: SecretStore;
  /** `false` commits every charge on its own (one fsync each): the benchmark's comparison point. */
  groupCommit?: boolean;
}

/** Opens (and migrates) the data file. One per process; never shared across fork(). */
export function openStore(path: string, options: StoreOptions = {}): SqliteStore {
  const { secrets, groupCommit, ...openOptions } = options;
  const db = openDb(path, openOptions);
  try {
    migrate(db);
  } catch (error) {
    // A refused file is left as it was found: no handle kept open (on Windows, no file kept locked).
    db.close();
    throw error;
  }
  return new SqliteStore(db, path, {
    ...(secrets ? { secrets } : {}),
    ...(groupCommit !== undefined ? { groupCommit } : {}),
  });
}
