// Upgrading a data folder in place, and refusing one this build must not touch. The fixture is a data folder
// written by the release before migration checksums (schema v3; see test/fixtures/data-folder-v3/).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createRatingService } from '../../../core/service';
import { DataFileRefusedError, openStore, type SqliteStore } from '../../../core/store';
import { latestVersion } from '../../../core/store/sqlite/migrate';
import { sqlChecksum } from '../../../core/store/migration-checksum';
import { migrations } from '../../../core/store/sqlite/migrations';

const FIXTURE = fileURLToPath(new URL('../../fixtures/data-folder-v3/ratedesk.db.gz', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** A migration number this build does not know (a newer RateDesk's). */
const NEXT = latestVersion() + 1;
const pad = (version: number): string => String(version).padStart(4, '0');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ratedesk-mig-'));
  dirs.push(d);
  return d;
}

/** A copy of the v3 fixture folder; returns the path of its ratedesk.db. */
function fixtureCopy(): string {
  const file = join(tempDir(), 'ratedesk.db');
  writeFileSync(file, gunzipSync(readFileSync(FIXTURE)), { mode: 0o600 });
  return file;
}

/** A folder created and migrated by this build. */
async function freshFile(): Promise<string> {
  const file = join(tempDir(), 'ratedesk.db');
  await openStore(file).close();
  return file;
}

/** Edits the file behind RateDesk's back, then folds the WAL in so the bytes on disk are final. */
function tamper(file: string, sql: string): void {
  const db = new Database(file);
  db.exec(sql);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every row of every table but the bookkeeping, in rowid order; tables without rows (new ones) are left out. */
function dumpData(db: Database.Database): Record<string, unknown[]> {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables
      .map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()] as const)
      .filter(([, rows]) => rows.length > 0),
  );
}

function schema(db: Database.Database): unknown[] {
  return db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
}

function applied(db: Database.Database) {
  return db
    .prepare<[], { version: number; name: string; checksum: string; applied_at: string | null }>(
      'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version',
    )
    .all();
}

/** The refusal openStore throws for `file`, which must leave the file's bytes exactly as they were. */
async function refusal(file: string): Promise<DataFileRefusedError> {
  const before = sha(file);
  let caught: unknown;
  try {
    await openStore(file).close();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DataFileRefusedError);
  expect(sha(file)).toBe(before);
  // The WAL is folded in and removed when the last handle closes; a write would have left it non-empty.
  expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
  return caught as DataFileRefusedError;
}

describe('a data folder written by the v3 release', () => {
  it('upgrades in place with every row kept and the checksums back-filled; a second open writes nothing', async () => {
    const file = fixtureCopy();
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(3);
    const before = dumpData(raw);
    raw.close();

    // The fixture is realistic, not empty: what the test below keeps was really there.
    expect(Object.fromEntries(Object.entries(before).map(([t, rows]) => [t, rows.length]))).toEqual({
      accounts: 2,
      api_keys: 4,
      carrier_health: 2,
      idempotency: 3,
      ledger: 11,
      notifications: 2,
      quotes: 8,
      rate_limit_overrides: 1,
      settings: 3,
    });

    const store = openStore(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(latestVersion());
    // Columns a later migration added (0008: who asked, from which warehouse) are empty on the rows before it.
    const kept = {
      ...before,
      quotes: before.quotes!.map((q) => ({ ...(q as object), author: null, warehouse: null })),
    };
    expect(dumpData(store.db)).toEqual(kept);
    expect(store.db.pragma('quick_check', { simple: true })).toBe('ok');
    expect(await store.accounts.invariantViolations()).toEqual([]);
    expect((await store.accounts.list()).map((a) => [a.name, a.balance])).toEqual([
      ['default', 599],
      ['acme', 1499],
    ]);
    const keys = await store.keys.list();
    expect(keys.filter((k) => k.revoked_at !== null)).toHaveLength(1);
    expect(keys.filter((k) => k.origin === 'imported')).toHaveLength(1);
    expect(
      store.db.prepare('SELECT source, COUNT(*) AS n FROM quotes GROUP BY source ORDER BY source').all(),
    ).toEqual([
      { source: 'api', n: 6 },
      { source: 'desk', n: 2 },
    ]);

    const rows = applied(store.db);
    expect(rows.map((r) => [r.version, r.name, r.checksum])).toEqual(
      migrations.map((m) => [m.version, m.name, sqlChecksum(m.sql)]),
    );
    // 0001–0003 ran before anything recorded when; 0004 and every later one ran just now.
    expect(rows.map((r) => r.applied_at === null)).toEqual(migrations.map((m) => m.version < 4));
    for (const row of rows.slice(3)) expect(Date.now() - Date.parse(row.applied_at!)).toBeLessThan(60_000);

    // The upgraded file has the schema a new data folder gets, statement for statement.
    const fresh = new Database(await freshFile());
    expect(schema(store.db)).toEqual(schema(fresh));
    fresh.close();
    await store.close();

    const upgraded = sha(file);
    const again = openStore(file);
    expect(applied(again.db)).toEqual(rows);
    expect(dumpData(again.db)).toEqual(kept);
    await again.close();
    expect(sha(file)).toBe(upgraded);
  });

  it('starts the rating service (quick_check and ledger invariant pass)', async () => {
    const file = fixtureCopy();
    const dir = join(file, '..');
    const service = await createRatingService({ dataDir: dir, listen: false });
    try {
      expect(await service.store.accounts.list()).toHaveLength(2);
      expect((service.store as SqliteStore).db.pragma('user_version', { simple: true })).toBe(
        latestVersion(),
      );
    } finally {
      await service.close();
    }
  });
});

describe('a fresh data folder', () => {
  it('records every migration with this build’s checksum', async () => {
    const db = new Database(await freshFile());
    const rows = applied(db);
    expect(rows.map((r) => [r.version, r.name, r.checksum])).toEqual(
      migrations.map((m) => [m.version, m.name, sqlChecksum(m.sql)]),
    );
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    db.close();
  });
});

describe('refusals', () => {
  it('a migration applied with another checksum: names it, both checksums, the file and what to do', async () => {
    const file = await freshFile();
    const forged = 'deadbeef0123'.padEnd(64, '0');
    tamper(file, `UPDATE schema_migrations SET checksum = '${forged}' WHERE version = 3`);
    const error = await refusal(file);
    expect(error.reason).toBe('checksum-mismatch');
    expect(error.file).toBe(file);
    expect(error.message).toBe(
      `Refusing to open the data file ${file}: migration 0003 "quote history, notification log, carrier health" ` +
        'was applied to it with checksum deadbeef0123, but this build of RateDesk has checksum 68ae254b0167 ' +
        'for migration 0003. The data folder was written by a different build of RateDesk. Nothing in it has ' +
        'been changed. Restore a backup of the data folder, or use the build of RateDesk that wrote it.',
    );
    expect(error.message).not.toContain('\n');
  });

  it('a back-filled checksum that differs is refused too (an upgraded v3 folder)', async () => {
    const file = fixtureCopy();
    await openStore(file).close();
    tamper(file, `UPDATE schema_migrations SET checksum = '${'1'.repeat(64)}' WHERE version = 1`);
    const error = await refusal(file);
    expect(error.reason).toBe('checksum-mismatch');
    expect(error.message).toContain('migration 0001 "accounts, keys, ledger, limits, settings"');
    expect(error.message).toContain(
      'checksum 111111111111, but this build of RateDesk has checksum a5ca69de4ed1',
    );
  });

  it('a file whose latest migration this build does not know (a newer RateDesk wrote it)', async () => {
    const file = await freshFile();
    tamper(
      file,
      `INSERT INTO schema_migrations VALUES (${NEXT}, 'carrier contracts', '${'ab'.repeat(32)}', '2031-01-01T00:00:00.000Z');
       PRAGMA user_version = ${NEXT};`,
    );
    const error = await refusal(file);
    expect(error.reason).toBe('newer');
    expect(error.message).toBe(
      `Refusing to open the data file ${file}: its schema v${NEXT} (migration ${pad(NEXT)} "carrier contracts") is newer ` +
        `than this RateDesk, which knows migrations up to ${pad(latestVersion())}, so a newer RateDesk wrote it. Nothing in it has ` +
        'been changed. Use that newer RateDesk, or restore a backup of the data folder made with this version.',
    );
  });

  it('a newer schema version with no record of its migrations', async () => {
    const file = fixtureCopy();
    tamper(file, `PRAGMA user_version = ${NEXT + 4}`);
    const error = await refusal(file);
    expect(error.reason).toBe('newer');
    expect(error.message).toContain(
      `its schema v${NEXT + 4} is newer than this RateDesk, which knows migrations up to ${pad(latestVersion())}`,
    );
  });

  it.each([
    [
      'a missing row',
      'DELETE FROM schema_migrations WHERE version = 2',
      /no checksum recorded for migration 0002/,
    ],
    [
      'a missing table',
      'DROP TABLE schema_migrations',
      new RegExp(`schema v${latestVersion()}, but no schema_migrations table`),
    ],
    [
      'a schema version set back',
      'PRAGMA user_version = 3',
      /a schema_migrations table, but schema v3 predates it/,
    ],
  ])('an inconsistent record: %s', async (_what, sql, detail) => {
    const file = await freshFile();
    tamper(file, sql);
    const error = await refusal(file);
    expect(error.reason).toBe('history-damaged');
    expect(error.message).toMatch(detail);
    expect(error.message).toMatch(/Nothing in it has been changed\. Restore a backup of the data folder\.$/);
  });
});

describe('every host reports the refusal and stops', () => {
  async function tamperedFolder(): Promise<{ dir: string; file: string }> {
    const file = await freshFile();
    tamper(file, `UPDATE schema_migrations SET checksum = '${'0'.repeat(64)}' WHERE version = 2`);
    return { dir: join(file, '..'), file };
  }
  const expected =
    /^.*Refusing to open the data file .*ratedesk\.db: migration 0002 "idempotency records" was applied to it with checksum 000000000000, but this build of RateDesk has checksum 34fe32a635c0 .* Restore a backup of the data folder, or use the build of RateDesk that wrote it\.$/m;

  it('the rating service (npm run serve, the desktop app) rejects with the message and releases the folder', async () => {
    const { dir, file } = await tamperedFolder();
    const before = sha(file);
    await expect(createRatingService({ dataDir: dir, listen: false })).rejects.toThrow(expected);
    // Released: a second attempt gets the same refusal, not "already serving".
    await expect(createRatingService({ dataDir: dir, listen: false })).rejects.toThrow(expected);
    expect(sha(file)).toBe(before);
  });

  it('npm run serve: the message on stderr, exit code 1', async () => {
    const { dir, file } = await tamperedFolder();
    const before = sha(file);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dir, '--port', '0'],
      { cwd: ROOT, encoding: 'utf8', timeout: 20_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(expected);
    expect(sha(file)).toBe(before);
  });

  it('npm run admin: the message on stderr, exit code 1', async () => {
    const { dir, file } = await tamperedFolder();
    const before = sha(file);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'core/cli/admin.ts', '--data-dir', dir, 'accounts', 'list'],
      { cwd: ROOT, encoding: 'utf8', timeout: 20_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(expected);
    expect(sha(file)).toBe(before);
  });
});
