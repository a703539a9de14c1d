// One test per migration (Signal's updateToVersion pattern): migrate to N-1, write data shaped like that
// version, migrate to N, check the data and the new schema.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestVersion, migrate } from '../../../core/store/sqlite/migrate';
import { sqlChecksum } from '../../../core/store/migration-checksum';
import { migrations } from '../../../core/store/sqlite/migrations';
import { openDb } from '../../../core/store/sqlite/open';

function freshDb() {
  return openDb(join(mkdtempSync(join(tmpdir(), 'mig-')), 'ratedesk.db'));
}
const tables = (db: ReturnType<typeof openDb>): string[] =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];

describe('migrations', () => {
  it('the file is opened with WAL, synchronous=FULL and foreign keys', () => {
    const db = freshDb();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('0001 creates accounts, keys, an append-only ledger, overrides and settings', () => {
    const db = freshDb();
    expect(migrate(db, 1)).toBe(1);
    expect(tables(db)).toEqual(['accounts', 'api_keys', 'ledger', 'rate_limit_overrides', 'settings']);
    db.prepare("INSERT INTO accounts (name, balance, created_at) VALUES ('a', 5, 'now')").run();
    db.prepare(
      "INSERT INTO ledger (account_id, delta, kind, created_at) VALUES (1, 5, 'opening', 'now')",
    ).run();
    expect(() => db.prepare('UPDATE ledger SET delta = 6').run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM ledger').run()).toThrow(/append-only/);
    expect(() => db.prepare('UPDATE accounts SET balance = -1').run()).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare("INSERT INTO ledger (account_id, delta, kind, created_at) VALUES (99, 1, 'topup', 'x')")
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('0002 adds idempotency records and keeps existing data', () => {
    const db = freshDb();
    migrate(db, 1);
    db.prepare("INSERT INTO accounts (name, balance, created_at) VALUES ('a', 5, 'now')").run();
    expect(migrate(db, 2)).toBe(2);
    expect(tables(db)).toContain('idempotency');
    expect(db.prepare('SELECT balance FROM accounts').pluck().get()).toBe(5);
    db.prepare("INSERT INTO idempotency VALUES (1, 'k', 'f', 200, '{}', 'req_1', 0)").run();
    expect(() =>
      db.prepare("INSERT INTO idempotency VALUES (1, 'k', 'g', 200, '{}', 'req_2', 0)").run(),
    ).toThrow(/UNIQUE/);
  });

  it('0003 adds quote history, the notification log and carrier health', () => {
    const db = freshDb();
    migrate(db, 2);
    db.prepare("INSERT INTO accounts (name, balance, created_at) VALUES ('a', 5, 'now')").run();
    expect(migrate(db, 3)).toBe(3);
    expect(tables(db)).toEqual(expect.arrayContaining(['quotes', 'notifications', 'carrier_health']));
    db.prepare(
      "INSERT INTO notifications (account_id, kind, threshold, balance, created_at) VALUES (1, 'low_balance', 100, 99, 'now')",
    ).run();
    expect(() => db.prepare("INSERT INTO carrier_health (code, status) VALUES ('x', 'dead')").run()).toThrow(
      /CHECK/,
    );
  });

  it('0004 records every applied migration with its checksum and keeps existing data', () => {
    const db = freshDb();
    migrate(db, 3);
    db.prepare("INSERT INTO accounts (name, balance, created_at) VALUES ('a', 5, 'now')").run();
    expect(migrate(db, 4)).toBe(4);
    expect(db.prepare('SELECT balance FROM accounts').pluck().get()).toBe(5);
    const rows = db
      .prepare('SELECT version, name, checksum, applied_at IS NULL AS backfilled FROM schema_migrations')
      .all();
    expect(rows).toEqual(
      migrations
        .filter((m) => m.version <= 4)
        .map((m) => ({
          version: m.version,
          name: m.name,
          checksum: sqlChecksum(m.sql),
          backfilled: m.version < 4 ? 1 : 0,
        })),
    );
    expect(() => db.prepare("INSERT INTO schema_migrations VALUES (9, 'x', 'short', NULL)").run()).toThrow(
      /CHECK/,
    );
  });

  it('re-running is a no-op and a newer file is refused', () => {
    const db = freshDb();
    expect(migrate(db)).toBe(latestVersion());
    expect(migrate(db)).toBe(latestVersion());
    db.pragma(`user_version = ${latestVersion() + 1}`);
    expect(() => migrate(db)).toThrow(/newer than this RateDesk/);
  });
});
