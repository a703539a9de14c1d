import type { PgMigration } from '../migrate';

export const m0002CarrierCoordination: PgMigration = {
  version: 2,
  name: 'carrier coordination',
  // Carriers' limits and tokens are per carrier account, not per instance (coordination.ts). A window slot is
  // a request let through to a carrier with a quota (PEK: 100 a minute per login), on the database clock;
  // rows older than the window are deleted by the next take. Tokens are sealed like secret settings.
  sql: `
    CREATE TABLE carrier_window_slots (
      window_name text NOT NULL CHECK (length(window_name) BETWEEN 1 AND 2100),
      asker text NOT NULL CHECK (length(asker) <= 200),
      at timestamptz NOT NULL
    );
    CREATE INDEX carrier_window_slots_window ON carrier_window_slots (window_name, at);

    CREATE TABLE carrier_tokens (
      name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 2100),
      token text NOT NULL,
      refresh_at_ms bigint NOT NULL
    );
  `,
};
