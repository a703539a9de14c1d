// The ledger model (test/reliability/ledger-model.test.ts) on a company database: a fresh PostgreSQL database
// per run, with the model's clock as the database clock.
//
// The company store keeps time by the database's clock_timestamp(), not by the service's Clock (one bucket and
// one hold lease for N instances whose clocks differ): without more, real time would leak into the model's
// token buckets and its predictions could not be exact. So the tests' databases get their own
// clock_timestamp() in a schema `virtual_clock` that their connections search before pg_catalog; it reads the
// model's monotonic time from a one-row table the harness writes before each request. Every statement of the
// store runs unchanged; only the time it reads is the model's.
import type { Store } from '../../core/store';
import { openCompanyStore } from '../../core/store/company';
import type { PgStore } from '../../core/store/postgres';
import type { Probe, Tier } from './ledger-model';
import { createTestDatabase, dropTestDatabase } from './postgres';

const VIRTUAL_CLOCK = `
  CREATE SCHEMA virtual_clock;
  CREATE TABLE virtual_clock.now (ms double precision NOT NULL);
  INSERT INTO virtual_clock.now VALUES (0);
  CREATE FUNCTION virtual_clock.clock_timestamp() RETURNS timestamptz LANGUAGE sql VOLATILE
    AS $$ SELECT to_timestamp(ms / 1000) FROM virtual_clock.now $$;`;

/** Unqualified names find the store's tables in public, and clock_timestamp() in virtual_clock. */
function withVirtualClock(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', '-c search_path=public,virtual_clock,pg_catalog');
  return u.toString();
}

export interface ModelDatabase {
  /** What the service is given (`database: { url }`). */
  url: string;
  /** The admin CLI's own connection, as `npm run admin -- --database URL` would open. */
  other: Store;
  probe: Probe;
  /** Sets the database clock to the model's monotonic time (ms). */
  setClock(monoMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function openModelDatabase(): Promise<ModelDatabase> {
  const plain = await createTestDatabase('ledger_model');
  const url = withVirtualClock(plain);
  let other: Store;
  try {
    other = await openCompanyStore(url);
    await (other as PgStore).db.rows(VIRTUAL_CLOCK);
  } catch (error) {
    await dropTestDatabase(plain);
    throw error;
  }
  const db = (other as PgStore).db;
  return {
    url,
    other,
    probe: pgProbe(db),
    async setClock(monoMs) {
      await db.rows('UPDATE virtual_clock.now SET ms = $1', [monoMs]);
    },
    async close() {
      await other.close();
      await dropTestDatabase(plain);
    },
  };
}

/** The probe's reads in PostgreSQL's words (bigint columns arrive as numbers through the store's pool). */
function pgProbe(db: PgStore['db']): Probe {
  return {
    async account(id) {
      const row = await db.first<{ balance: number; tier: Tier; rps: number | null; burst: number | null }>(
        `SELECT a.balance, a.tier, o.rps, o.burst FROM accounts a
         LEFT JOIN rate_limit_overrides o ON o.account_id = a.id WHERE a.id = $1`,
        [id],
      );
      return row!;
    },
    async charges(id) {
      const rows = await db.rows<{ request_id: string }>(
        "SELECT request_id FROM ledger WHERE account_id = $1 AND kind = 'rates' ORDER BY id",
        [id],
      );
      return rows.map((r) => r.request_id);
    },
    records: (id, afterMs) =>
      // Completed records only (a claim in flight has no created_at_ms); byte order, as the model sorts.
      db.rows(
        `SELECT idem_key, status, body, request_id, created_at_ms FROM idempotency
         WHERE account_id = $1 AND status IS NOT NULL AND created_at_ms > $2 ORDER BY idem_key COLLATE "C"`,
        [id, afterMs],
      ),
    async revoked(keyId) {
      const row = await db.first<{ revoked_at: string | null }>(
        'SELECT revoked_at FROM api_keys WHERE id = $1',
        [keyId],
      );
      if (!row) throw new Error(`key ${keyId} is not in the database`);
      return row.revoked_at !== null;
    },
    async staleRecords(beforeMs) {
      const row = await db.first<{ n: number }>(
        'SELECT count(*) AS n FROM idempotency WHERE created_at_ms < $1',
        [beforeMs],
      );
      return row!.n;
    },
    async inFlight(id) {
      const row = await db.first<{ held: number; holds: number; claims: number }>(
        `SELECT held, (SELECT count(*) FROM holds WHERE account_id = $1) AS holds,
           (SELECT count(*) FROM idempotency WHERE account_id = $1 AND status IS NULL) AS claims
         FROM accounts WHERE id = $1`,
        [id],
      );
      return row!;
    },
  };
}
