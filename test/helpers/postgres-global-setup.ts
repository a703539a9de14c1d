// vitest globalSetup: one PostgreSQL cluster for the whole run (test/helpers/postgres-cluster.ts), and a
// migrated template database each test's own database is copied from (test/helpers/postgres.ts).
//
// The cluster runs without fsync: the tests kill RateDesk's processes, never the database server, so its own
// crash safety is not what they test, and a database per test costs ~0.15 s instead of ~1.3 s this way. The
// benchmark's cluster keeps PostgreSQL's durable defaults (scripts/bench/company.ts).
import type { TestProject } from 'vitest/node';
import { openPgStore } from '../../core/store/postgres';
import { startCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's maintenance database URL. */
    pgAdminUrl: string;
    /** A database migrated to this build's schema, with no rows: the template of createTestDatabase. */
    pgTemplate: string;
  }
}

export const TEMPLATE_DATABASE = 'ratedesk_template';

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startCluster({
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  try {
    const url = await cluster.createDatabase(TEMPLATE_DATABASE);
    const store = await openPgStore(url);
    await store.close();
    project.provide('pgAdminUrl', cluster.url());
    project.provide('pgTemplate', new URL(url).pathname.slice(1));
  } catch (error) {
    cluster.stop();
    throw error;
  }
  return () => cluster.stop();
}
