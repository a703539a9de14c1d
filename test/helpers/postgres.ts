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

/** A new, empty database in the run's cluster; its URL. */
export async function createTestDatabase(prefix = 't'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await onAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createTestDatabase, whoever is still connected to it. */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  await onAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
