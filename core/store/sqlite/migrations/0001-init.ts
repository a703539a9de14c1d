import type { Migration } from '../migrate';

export const m0001Init: Migration = {
  version: 1,
  name: 'accounts, keys, ledger, limits, settings',
  sql: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        tier TEXT NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'paid')),
        balance INTEGER NOT NULL CHECK (balance >= 0),
        last_package INTEGER CHECK (last_package > 0),
        threshold TEXT NOT NULL DEFAULT '100' CHECK (threshold IN ('100', '500', '1000', 'auto', 'off')),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        digest TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        last_four TEXT NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('created', 'imported')),
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_keys_account ON api_keys(account_id);

      -- Every balance change is a row here, written in the same transaction as accounts.balance.
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        delta INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('opening', 'topup', 'rates')),
        request_id TEXT UNIQUE,
        note TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX ledger_account ON ledger(account_id);
      CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;

      CREATE TABLE rate_limit_overrides (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
        rps REAL NOT NULL CHECK (rps > 0),
        burst INTEGER NOT NULL CHECK (burst >= 1),
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `,
};
