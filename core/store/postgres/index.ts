// The company store (PostgreSQL through node-postgres): the only code besides core/store/sqlite that knows a
// database driver exists (eslint.config.js zones).
import { createPool, displayUrl, type PoolOptions } from './pool';
import { migratePg } from './migrate';
import { PgStore, type PgStoreOptions } from './store';

export { PgStore } from './store';
export { displayUrl } from './pool';

export interface PgOpenOptions extends PgStoreOptions, PoolOptions {}

/** A postgres:// or postgresql:// URL. */
export function isDatabaseUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** Connects, migrates (under the migration lock: N instances starting together migrate once) and opens. */
export async function openPgStore(url: string, options: PgOpenOptions = {}): Promise<PgStore> {
  const location = displayUrl(url);
  const pool = createPool(url, options);
  const relaxed = createPool(url, options, true);
  try {
    const client = await pool.connect();
    // A connection lost during the migration rejects it (below); it must not end the process as well.
    const lost = (): void => {};
    client.on('error', lost);
    try {
      await migratePg(client, location);
    } finally {
      client.off('error', lost);
      client.release();
    }
    const store = new PgStore(pool, url, location, { ...options, relaxedPool: relaxed });
    await store.start();
    return store;
  } catch (error) {
    await pool.end().catch(() => {});
    await relaxed.end().catch(() => {});
    throw error;
  }
}
