// Where the store lives for a host: the desk's data folder (SQLite, the default) or a company database
// (PostgreSQL, `--database` / RATEDESK_DATABASE_URL). Hosts call this; nothing else chooses an implementation.
import { systemClock, type WallClock } from '../util/clock';
import { DEFAULT_ACCOUNT } from './data-folder';
import type { Store } from './port';
import { isDatabaseUrl, openPgStore, type PgOpenOptions } from './postgres';

export { isDatabaseUrl } from './postgres';

export const DATABASE_URL_ENV = 'RATEDESK_DATABASE_URL';

/** The database URL from the flag, else the environment; undefined for the data folder. */
export function databaseUrlFrom(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const url = flag ?? (env[DATABASE_URL_ENV] || undefined);
  if (url === undefined) return undefined;
  if (!isDatabaseUrl(url))
    throw new Error(
      `--database (or ${DATABASE_URL_ENV}) must be a postgres:// URL, e.g. postgres://ratedesk@db.example:5432/ratedesk`,
    );
  return url;
}

/** Opens (migrating) the company database and gives a fresh one its `default` account, as a new folder has. */
export async function openCompanyStore(
  url: string,
  options: PgOpenOptions & { clock?: WallClock } = {},
): Promise<Store> {
  const { clock = systemClock, ...open } = options;
  const store = await openPgStore(url, open);
  try {
    await store.accounts.seedIfEmpty(
      DEFAULT_ACCOUNT.name,
      DEFAULT_ACCOUNT.balance,
      clock.now().toISOString(),
    );
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}
