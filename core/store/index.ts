import { accountsRepo } from './accounts';
import { carrierHealthRepo } from './carrier-health';
import { useServingBusyTimeout } from './busy';
import { ChangeWatch } from './change-watch';
import { GroupCommitter, type GroupCommitterOptions } from './commit-queue';
import { idempotencyRepo } from './idempotency';
import { integrityCheckOf } from './integrity';
import { keysRepo } from './keys';
import { locationCacheRepo } from './location-cache';
import { migrate } from './migrate';
import { notificationsRepo } from './notifications';
import { pickupCatalogueRepo } from './pickup-catalogue';
import type { SecretStore } from '../settings/secrets';
import { openDb, type Db, type OpenOptions } from './open';
import { quotesRepo } from './quotes';
import { rateCardsRepo } from './rate-cards';
import { settingsRepo } from './settings';

export type { Db } from './open';
export type { IntegrityCheckStore, IntegrityReport } from './integrity';
export type { LocationCacheStore } from './location-cache';
export type { PickupCatalogueStore } from './pickup-catalogue';
export { DataFileRefusedError, type RefusalReason } from './migrate';

export interface StoreOptions extends OpenOptions {
  /** How secret settings are kept at rest (settings/secrets.ts); plain text by default. */
  secrets?: SecretStore;
}

/** The data file with every table family's prepared statements. One per process; never shared across fork(). */
export function openStore(path: string, options: StoreOptions = {}) {
  const { secrets, ...openOptions } = options;
  const db: Db = openDb(path, openOptions);
  try {
    migrate(db);
  } catch (error) {
    // A refused file is left as it was found: no handle kept open (on Windows, no file kept locked).
    db.close();
    throw error;
  }
  // Before any repository prepares a statement: the watch counts writes as statements run.
  const changes = new ChangeWatch(db);
  return {
    db,
    path,
    accounts: accountsRepo(db),
    keys: keysRepo(db),
    idempotency: idempotencyRepo(db),
    settings: settingsRepo(db, secrets),
    notifications: notificationsRepo(db),
    quotes: quotesRepo(db),
    carrierHealth: carrierHealthRepo(db),
    rateCards: rateCardsRepo(db),
    /** What carriers' directories answered about places (the location resolver's cache). */
    locationCache: locationCacheRepo(db),
    /** The pickup-point catalogue 5Post downloads (its fivepost_* tables). */
    pickupCatalogue: pickupCatalogueRepo(db),
    /** Tells row caches when the file may have changed (another process committed, or this one wrote). */
    changes,
    ...integrityCheckOf(db),
    /**
     * From here on a write meets a lock held elsewhere for milliseconds, then the committer retries it off the
     * event loop (busy.ts); only what ran before (opening, migrating, the start's checks) waits the full timeout.
     */
    useServingBusyTimeout(): void {
      useServingBusyTimeout(db);
    },
    /** The committer that batches the service's money-path writes into shared transactions (commit-queue.ts). */
    groupCommitter(options?: GroupCommitterOptions): GroupCommitter {
      return new GroupCommitter(db, options);
    },
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
