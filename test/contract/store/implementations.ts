// The store implementations the contract suite runs against (#18 item 3). Each entry opens a fresh, empty
// store of its kind and knows the few things the tests cannot ask through the port: how to open the same data
// again (durability), a second instance on the same data (the change feed across instances) and how to damage
// the stored migration history (the refusal). Everything implementation-specific lives here; the test files
// only see `Store`. PostgreSQL (#19) is the second entry: a fresh database per test in the run's cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SecretStore } from '../../../core/settings/secrets';
import type { Store } from '../../../core/store/port';
import { openPgStore } from '../../../core/store/postgres';
import { openStore } from '../../../core/store/sqlite';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';

export interface StoreOpenOptions {
  /** How secret settings are kept at rest; the implementation's default (plain text) when absent. */
  secrets?: SecretStore;
}

export interface OpenedStore {
  /** The store the test works with: the one `reopen()` returned last. */
  readonly store: Store;
  /** Closes `store` and opens the same data again (with the options it was opened with); the new store. */
  reopen(): Promise<Store>;
  /** Another instance on the same data, as a second process (or a second server instance) would have. */
  openSecond(options?: StoreOpenOptions): Promise<Store>;
  /**
   * Closes `store` and changes the stored record of an applied migration, so that the next open must refuse
   * the data with DataFileRefusedError. Absent where an implementation cannot damage its own data.
   */
  tamper?(): Promise<void>;
  /** Closes every store opened here and removes the data. */
  cleanup(): Promise<void>;
}

export interface StoreImplementation {
  name: string;
  /**
   * Whether several instances on the same data share the money path's state (reservations, in-flight claims,
   * buckets): a database server's store, run by N instances. An embedded store keeps that state in its
   * process, since one process serves a data folder (port.ts); the cross-instance tests of it are skipped.
   */
  sharedState: boolean;
  open(options?: StoreOpenOptions): Promise<OpenedStore>;
}

/** Closes a store once, however often it is asked (close() after close() may fail by the port). */
class Handles {
  private readonly open = new Set<Store>();
  add<T extends Store>(store: T): T {
    this.open.add(store);
    return store;
  }
  async close(store: Store): Promise<void> {
    if (!this.open.delete(store)) return;
    await store.close();
  }
  async closeAll(): Promise<void> {
    for (const store of [...this.open]) await this.close(store);
  }
}

const sqlite: StoreImplementation = {
  name: 'sqlite',
  sharedState: false,
  async open(options = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-contract-'));
    const file = join(dir, 'ratedesk.db');
    const handles = new Handles();
    const openOn = (opts: StoreOpenOptions): Store =>
      handles.add(openStore(file, opts.secrets ? { secrets: opts.secrets } : {}));
    let current: Store;
    try {
      current = openOn(options);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    return {
      get store() {
        return current;
      },
      async reopen() {
        await handles.close(current);
        current = openOn(options);
        return current;
      },
      async openSecond(second = {}) {
        return openOn(second);
      },
      async tamper() {
        await handles.close(current);
        // The implementation's own connection (SqliteStore.db, not part of the port): no driver import here.
        const raw = openStore(file);
        try {
          const changed = raw.db
            .prepare(
              `UPDATE schema_migrations SET checksum = ?
               WHERE version = (SELECT MAX(version) FROM schema_migrations)`,
            )
            .run('0'.repeat(64)).changes;
          if (changed !== 1) throw new Error('tamper: no recorded migration to change');
        } finally {
          await raw.close();
        }
      },
      async cleanup() {
        await handles.closeAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StoreImplementation = {
  name: 'postgres',
  sharedState: true,
  async open(options = {}) {
    const url = await createTestDatabase('contract');
    const handles = new Handles();
    const openOn = async (opts: StoreOpenOptions): Promise<Store> =>
      handles.add(await openPgStore(url, opts.secrets ? { secrets: opts.secrets } : {}));
    let current: Store;
    try {
      current = await openOn(options);
    } catch (error) {
      await dropTestDatabase(url);
      throw error;
    }
    return {
      get store() {
        return current;
      },
      async reopen() {
        await handles.close(current);
        current = await openOn(options);
        return current;
      },
      openSecond: (second = {}) => openOn(second),
      async tamper() {
        await handles.close(current);
        // The implementation's own statements (PgStore.db, not part of the port): no driver import here.
        const raw = await openPgStore(url);
        try {
          const changed = await raw.db.rows(
            `UPDATE schema_migrations SET checksum = $1
             WHERE version = (SELECT MAX(version) FROM schema_migrations) RETURNING version`,
            ['0'.repeat(64)],
          );
          if (changed.length !== 1) throw new Error('tamper: no recorded migration to change');
        } finally {
          await raw.close();
        }
      },
      async cleanup() {
        await handles.closeAll();
        await dropTestDatabase(url);
      },
    };
  },
};

export const STORE_IMPLEMENTATIONS: readonly StoreImplementation[] = [sqlite, postgres];
