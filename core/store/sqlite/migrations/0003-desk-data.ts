import type { Migration } from '../migrate';

export const m0003DeskData: Migration = {
  version: 3,
  name: 'quote history, notification log, carrier health',
  sql: `
      CREATE TABLE quotes (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL CHECK (source IN ('desk', 'api')),
        created_at TEXT NOT NULL,
        from_city TEXT NOT NULL,
        to_city TEXT NOT NULL,
        weight_grams INTEGER NOT NULL,
        cheapest_kopecks INTEGER,
        carriers TEXT NOT NULL,
        sandbox INTEGER NOT NULL CHECK (sandbox IN (0, 1)),
        shipment_json TEXT NOT NULL,
        result_json TEXT NOT NULL
      ) STRICT;
      CREATE INDEX quotes_created ON quotes(created_at);

      CREATE TABLE notifications (
        id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        kind TEXT NOT NULL CHECK (kind IN ('low_balance')),
        threshold INTEGER NOT NULL,
        balance INTEGER NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE carrier_health (
        code TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('available', 'unknown', 'unavailable')),
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        last_success_at TEXT,
        last_failure_at TEXT,
        latency_ms_median INTEGER
      ) STRICT;
    `,
};
