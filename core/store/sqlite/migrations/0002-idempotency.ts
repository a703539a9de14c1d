import type { Migration } from '../migrate';

export const m0002Idempotency: Migration = {
  version: 2,
  name: 'idempotency records',
  // Only completed outcomes are stored; the in-flight claim lives in the server's memory (see api/idempotency.ts).
  sql: `
      CREATE TABLE idempotency (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        idem_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        request_id TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (account_id, idem_key)
      ) STRICT;
      CREATE INDEX idempotency_created ON idempotency(created_at_ms);
    `,
};
