// Migrations of the company database: numbered, append-only, each with the checksum of its SQL recorded in
// schema_migrations and compared with this build's before anything is touched (as the data file's are, so a
// database written by another build is refused, never migrated further by code that assumes another schema).
// N instances start together: the whole check-and-migrate runs under one advisory lock, so one of them
// migrates and the others find the work done.
import type pg from 'pg';
import { shortChecksum, sqlChecksum } from '../migration-checksum';
import { DataFileRefusedError, type RefusalReason } from '../refused';
import { migrations } from './migrations';

export interface PgMigration {
  version: number;
  name: string;
  /** Run as one script in the migration's transaction, with its schema_migrations row. */
  sql: string;
}

/** pg_advisory_lock key of the migration ("RDmg"): any constant no other lock of the database uses. */
const MIGRATION_LOCK = 0x52446d67;

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

export function latestPgVersion(): number {
  return migrations[migrations.length - 1]!.version;
}

/** Checks the recorded history, then applies what is missing; `where` names the database in messages. */
export async function migratePg(client: pg.PoolClient, where: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY CHECK (version >= 1),
        name text NOT NULL,
        checksum text NOT NULL CHECK (length(checksum) = 64),
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const applied = (
      await client.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')
    ).rows;
    checkHistory(applied, where);
    const done = new Set(applied.map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          sqlChecksum(m.sql),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

function checkHistory(applied: readonly AppliedRow[], where: string): void {
  const known = latestPgVersion();
  const newest = applied[applied.length - 1];
  if (newest && newest.version > known) {
    throw refuse(
      'newer',
      where,
      `its schema has migration ${label(newest.version, newest.name)}, newer than this RateDesk, which knows ` +
        `migrations up to ${label(known)}, so a newer RateDesk migrated it.`,
      'Run the newer RateDesk on it (during a rolling upgrade, start only new instances).',
    );
  }
  applied.forEach((row, i) => {
    const m = migrations[i];
    if (!m || m.version !== row.version)
      throw refuse(
        'history-damaged',
        where,
        `its record of applied migrations is inconsistent (migration ${label(row.version, row.name)} where ` +
          `${m ? label(m.version) : 'nothing'} was expected), so it cannot be checked against this build.`,
        'Restore a backup of the database.',
      );
    const expected = sqlChecksum(m.sql);
    if (row.checksum !== expected)
      throw refuse(
        'checksum-mismatch',
        where,
        `migration ${label(row.version, row.name)} was applied to it with checksum ${shortChecksum(row.checksum)}, ` +
          `but this build of RateDesk has checksum ${shortChecksum(expected)} for it. A different build of RateDesk wrote it.`,
        'Restore a backup of the database, or use the build of RateDesk that wrote it.',
      );
  });
}

function label(version: number, name?: string): string {
  const number = String(version).padStart(4, '0');
  return name === undefined ? number : `${number} "${name}"`;
}

function refuse(reason: RefusalReason, where: string, what: string, todo: string): DataFileRefusedError {
  return new DataFileRefusedError(
    reason,
    where,
    `Refusing to open the database ${where}: ${what} Nothing in it has been changed. ${todo}`,
  );
}
