// vitest globalSetup: one PostgreSQL cluster for the whole run (test/helpers/postgres-cluster.ts); each test
// that needs a database creates its own in it (`inject('pgAdminUrl')`, test/helpers/postgres.ts).
import type { TestProject } from 'vitest/node';
import { startCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's maintenance database URL; '' when the run needs no PostgreSQL. */
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startCluster();
  project.provide('pgAdminUrl', cluster.url());
  return () => cluster.stop();
}
