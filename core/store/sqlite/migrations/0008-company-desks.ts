import type { Migration } from '../migrate';

export const m0008CompanyDesks: Migration = {
  version: 8,
  name: 'company desks: users, devices, warehouses, audit',
  // Users and warehouses are unique by name_key, the name case-folded by the store (core/store/name-key.ts):
  // NOCASE folds ASCII only, and names are Cyrillic as often as not. An enrolment code and a device token are
  // kept as SHA-256 hex only. Removing a user removes their codes and devices; quotes and the audit log keep
  // names as text, so history outlives the user and the warehouse. The audit log is append-only, like the
  // ledger. Times are ISO-8601 UTC text, as everywhere in the file, so they compare as text.
  sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
        name_key TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('clerk', 'admin')),
        created_at TEXT NOT NULL,
        disabled_at TEXT
      ) STRICT;

      CREATE TABLE enrolment_codes (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_digest TEXT NOT NULL UNIQUE CHECK (length(code_digest) = 64),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      ) STRICT;
      CREATE INDEX enrolment_codes_user ON enrolment_codes(user_id);

      CREATE TABLE devices (
        id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_digest TEXT NOT NULL UNIQUE CHECK (length(token_digest) = 64),
        name TEXT NOT NULL CHECK (length(name) <= 200),
        created_at TEXT NOT NULL,
        last_seen_at TEXT,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX devices_user ON devices(user_id);

      CREATE TABLE warehouses (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
        name_key TEXT NOT NULL UNIQUE,
        city TEXT NOT NULL CHECK (length(city) BETWEEN 1 AND 120),
        postal_code TEXT CHECK (postal_code IS NULL OR length(postal_code) BETWEEN 1 AND 20),
        address TEXT NOT NULL CHECK (length(address) <= 300),
        default_carriers_json TEXT NOT NULL CHECK (json_valid(default_carriers_json)),
        box_presets_json TEXT NOT NULL CHECK (json_valid(box_presets_json)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user', 'desk', 'cli')),
        actor TEXT NOT NULL CHECK (length(actor) <= 200),
        action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 100),
        target TEXT NOT NULL CHECK (length(target) <= 2000),
        detail_json TEXT NOT NULL CHECK (json_valid(detail_json))
      ) STRICT;
      CREATE INDEX audit_at ON audit(at);
      CREATE INDEX audit_actor ON audit(actor, at);
      CREATE INDEX audit_action ON audit(action, at);
      CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

      ALTER TABLE quotes ADD COLUMN author TEXT;
      ALTER TABLE quotes ADD COLUMN warehouse TEXT;
      CREATE INDEX quotes_author ON quotes(author) WHERE author IS NOT NULL;
      CREATE INDEX quotes_warehouse ON quotes(warehouse) WHERE warehouse IS NOT NULL;
    `,
};
