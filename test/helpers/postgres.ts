// A fresh database per test (or per store) in the run's PostgreSQL cluster (postgres-global-setup.ts).
import pg from 'pg';
import { inject } from 'vitest';

let counter = 0;

async function onAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A new database in the run's cluster, already migrated to this build's schema and holding no rows (a copy of
 * the run's template); `{ empty: true }` for one with no schema at all (the migration's own tests). Its URL.
 */
export async function createTestDatabase(prefix = 't', options: { empty?: boolean } = {}): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const template = options.empty ? 'template0' : inject('pgTemplate');
  await onAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createTestDatabase, whoever is still connected to it. */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await onAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Ends every connection RateDesk holds to the database of `databaseUrl` (pool.ts names them `ratedesk`), as a
 * database restart or a network cut would: what each was doing in a transaction is rolled back. How many.
 */
export async function terminateRateDeskConnections(databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return onAdmin(async (c) => {
    const r = await c.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = $1 AND application_name = 'ratedesk' AND pid <> pg_backend_pid()`,
      [name],
    );
    return r.rowCount ?? 0;
  });
}
