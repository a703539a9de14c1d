// PostgreSQL's client tools (pg_dump, pg_restore) from the same installation as the tests' cluster
// (postgres-cluster.ts), run as its owner when we are root, as an operator would run them: over TCP, with the
// database's URL.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { postgresBinDir } from './postgres-cluster';

const asRoot = process.getuid?.() === 0;

/** Runs `tool` with `args` (stdin from `input`); its stdout. Throws with its stderr when it fails. */
export function runPgTool(
  tool: 'pg_dump' | 'pg_restore' | 'createdb',
  args: string[],
  input?: Buffer,
): Buffer {
  const bin = join(postgresBinDir(), tool);
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(command, argv, {
    ...(input ? { input } : {}),
    maxBuffer: 1024 * 1024 * 1024,
    timeout: 120_000,
  });
  if (r.status !== 0)
    throw new Error(
      `${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr?.toString('utf8') ?? r.error}`,
    );
  return r.stdout;
}

let counter = 0;

/**
 * A new database with no schema, made as docs/operations.md restores into one: `createdb` (from template1).
 * Its URL; dropTestDatabase (postgres.ts) drops it.
 */
export function createEmptyDatabase(prefix: string): string {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  runPgTool('createdb', ['--maintenance-db', inject('pgAdminUrl'), name]);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}
