import type { Migration } from '../migrate';

export const m0004MigrationChecksums: Migration = {
  version: 4,
  name: 'migration checksums',
  // Until now PRAGMA user_version was the whole record. From here on each applied migration also has a row
  // with the checksum of its SQL (core/store/migration-checksum.ts), written by the runner in the same
  // transaction, and compared with this build's migrations before the file is touched.
  //
  // The rows for 0001–0003 are back-filled here, for files that applied them before checksums existed and
  // for new files alike: the values are what sqlChecksum gives for those migrations, which never change
  // (a unit test recomputes them). applied_at is NULL because when they ran was never recorded.
  sql: `
      CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY CHECK (version >= 1),
        name TEXT NOT NULL,
        checksum TEXT NOT NULL CHECK (length(checksum) = 64),
        applied_at TEXT
      ) STRICT;
      INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES
        (1, 'accounts, keys, ledger, limits, settings', 'a5ca69de4ed1e68677fc02f032e7d7d0ae9a3467bd301dd5215a24b6a79505ff', NULL),
        (2, 'idempotency records', '34fe32a635c0441e065103520e38582981083705cc9da362c5ca7c8391402f5f', NULL),
        (3, 'quote history, notification log, carrier health', '68ae254b0167004da4d3e8c0f6efe3aa6980d83fb1c6299a154a7760282f1e94', NULL);
    `,
};
