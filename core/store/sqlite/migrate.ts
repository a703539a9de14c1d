import { resolve } from 'node:path';
import type { Db } from './open';
import { migrations } from './migrations';
import { DataFileRefusedError, type RefusalReason } from '../refused';
import { shortChecksum, sqlChecksum } from '../migration-checksum';

export interface Migration {
  version: number;
  name: string;
  /**
   * Run as one script inside the migration's transaction, and hashed for its checksum. SQL only, so what is
   * checked is exactly what runs: a step in code would change nothing the checksum sees.
   */
  sql: string;
}

/** The migration that creates schema_migrations: every migration from here on is recorded as it runs. */
const FIRST_RECORDED = 4;

export { DataFileRefusedError, type RefusalReason };

/**
 * Brings the file to the newest schema, one migration per transaction: the SQL, its schema_migrations row
 * (from 0004 on) and PRAGMA user_version commit together. Before anything is written, the history already
 * in the file is checked against this build's migrations (checkMigrationHistory).
 */
export function migrate(db: Db, target: number = latestVersion()): number {
  checkMigrationHistory(db);
  const start = userVersion(db);
  let raced = false;
  for (const m of migrations) {
    if (m.version <= start) continue;
    if (m.version > target) break;
    db.transaction(() => {
      // Read again under the write lock: another process opening the same file may have migrated it since.
      if (m.version <= userVersion(db)) {
        raced = true;
        return;
      }
      db.exec(m.sql);
      if (m.version >= FIRST_RECORDED) {
        db.prepare(
          `INSERT INTO schema_migrations (version, name, checksum, applied_at)
           VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
        ).run(m.version, m.name, checksumOf(m));
      }
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  // Whoever migrated it meanwhile may have been a newer or a different build.
  const end = userVersion(db);
  if (raced || end > latestVersion()) checkMigrationHistory(db);
  return end;
}

export function latestVersion(): number {
  return migrations[migrations.length - 1]!.version;
}

/**
 * Refuses (DataFileRefusedError) a file this build must not touch: one written by a newer RateDesk, one whose
 * applied migration differs from this build's migration of the same number, or one whose record of applied
 * migrations is inconsistent. Reads only. Files from before 0004 carry no checksums and pass; 0004 records
 * the checksums of 0001–0003 when it upgrades them.
 */
export function checkMigrationHistory(db: Db): void {
  const file = db.name === ':memory:' || db.name === '' ? db.name : resolve(db.name);
  const current = userVersion(db);
  const known = latestVersion();
  const hasTable =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !==
    undefined;
  const recorded = hasTable
    ? db
        .prepare<[], AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')
        .all()
    : [];

  const newestRow = recorded[recorded.length - 1];
  const newest = Math.max(current, newestRow?.version ?? 0);
  if (newest > known) {
    const which =
      newestRow?.version === newest ? ` (migration ${label(newestRow.version, newestRow.name)})` : '';
    throw refuse(
      'newer',
      file,
      `its schema v${newest}${which} is newer than this RateDesk, which knows migrations up to ${label(known)}, ` +
        'so a newer RateDesk wrote it.',
      'Use that newer RateDesk, or restore a backup of the data folder made with this version.',
    );
  }

  if (!hasTable) {
    if (current >= FIRST_RECORDED)
      throw damaged(file, `schema v${current}, but no schema_migrations table to say what was applied`);
    return;
  }
  if (current < FIRST_RECORDED)
    throw damaged(file, `a schema_migrations table, but schema v${current} predates it`);

  const byVersion = new Map(recorded.map((r) => [r.version, r]));
  for (const m of migrations) {
    if (m.version > current) break;
    const row = byVersion.get(m.version);
    if (!row)
      throw damaged(
        file,
        `schema v${current}, but no checksum recorded for migration ${label(m.version, m.name)}`,
      );
    const expected = checksumOf(m);
    if (row.checksum !== expected) {
      throw refuse(
        'checksum-mismatch',
        file,
        `migration ${label(row.version, row.name)} was applied to it with checksum ${shortChecksum(row.checksum)}, ` +
          `but this build of RateDesk has checksum ${shortChecksum(expected)} for migration ${label(m.version)}. ` +
          'The data folder was written by a different build of RateDesk.',
        'Restore a backup of the data folder, or use the build of RateDesk that wrote it.',
      );
    }
  }
  const extra = recorded.find((r) => r.version > current);
  if (extra)
    throw damaged(
      file,
      `migration ${label(extra.version, extra.name)} is recorded, but the schema version v${current} says it was never applied`,
    );
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

const checksums = new Map<Migration, string>();
function checksumOf(m: Migration): string {
  let sum = checksums.get(m);
  if (sum === undefined) checksums.set(m, (sum = sqlChecksum(m.sql)));
  return sum;
}

/** `0003 "quote history, …"`: the number as the file under migrations/ spells it. */
function label(version: number, name?: string): string {
  const number = String(version).padStart(4, '0');
  return name === undefined ? number : `${number} "${name}"`;
}

function refuse(reason: RefusalReason, file: string, what: string, todo: string): DataFileRefusedError {
  return new DataFileRefusedError(
    reason,
    file,
    `Refusing to open the data file ${file}: ${what} Nothing in it has been changed. ${todo}`,
  );
}

function damaged(file: string, detail: string): DataFileRefusedError {
  return refuse(
    'history-damaged',
    file,
    `its record of applied migrations is inconsistent (${detail}), so it cannot be checked against this build of RateDesk.`,
    'Restore a backup of the data folder.',
  );
}
