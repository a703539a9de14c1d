import { accountsRepo } from './accounts';
import { carrierHealthRepo } from './carrier-health';
import { idempotencyRepo } from './idempotency';
import { keysRepo } from './keys';
import { migrate } from './migrate';
import { notificationsRepo } from './notifications';
import { openDb, type Db, type OpenOptions } from './open';
import { quotesRepo } from './quotes';
import { settingsRepo } from './settings';

export type { Db } from './open';

/** The data file with every table family's prepared statements. One per process; never shared across fork(). */
export function openStore(path: string, options: OpenOptions = {}) {
  const db: Db = openDb(path, options);
  migrate(db);
  return {
    db,
    path,
    accounts: accountsRepo(db),
    keys: keysRepo(db),
    idempotency: idempotencyRepo(db),
    settings: settingsRepo(db),
    notifications: notificationsRepo(db),
    quotes: quotesRepo(db),
    carrierHealth: carrierHealthRepo(db),
    /** Runs fn in one BEGIN IMMEDIATE transaction (never across an await: fn is synchronous). */
    tx<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    close(): void {
      if (db.open) db.close();
    },
  };
}

export type Store = ReturnType<typeof openStore>;
