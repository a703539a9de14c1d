// The carriers' company-wide state on the database (the port's CarrierCoordinationStore). A window's takes are
// serialised by a transaction-scoped advisory lock of that window, so N instances decide on the same slots;
// PEK's quota is 100 a minute, so the few round trips per take cost nothing that matters.
import { decideSlot, type SlotDecision, type WindowRule } from '../../limits/sliding-window';
import { plainSecrets, type SecretStore } from '../../settings/secrets';
import type { CarrierCoordinationStore } from '../port';
import { asStoreError, type PgDb } from './pool';

export function pgCarrierCoordination(
  db: PgDb,
  secrets: SecretStore = plainSecrets,
): CarrierCoordinationStore {
  return {
    takeSlot: (window: string, asker: string, rule: WindowRule): Promise<SlotDecision> =>
      db.tx(async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('ratedesk.window:' || $1))`, [window]);
        const now = (
          await c.query<{ ms: number }>('SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::float8 AS ms')
        ).rows[0]!.ms;
        await c.query(
          'DELETE FROM carrier_window_slots WHERE window_name = $1 AND at <= to_timestamp($2 / 1000.0)',
          [window, now - rule.windowMs],
        );
        const live = (
          await c.query<{ at: number; asker: string }>(
            `SELECT (EXTRACT(EPOCH FROM at) * 1000)::float8 AS at, asker FROM carrier_window_slots
             WHERE window_name = $1 ORDER BY at`,
            [window],
          )
        ).rows;
        const decision = decideSlot(live, asker, rule, now);
        if (decision.ok)
          await c.query(
            'INSERT INTO carrier_window_slots (window_name, asker, at) VALUES ($1, $2, to_timestamp($3 / 1000.0))',
            [window, asker, now],
          );
        return decision;
      }),
    async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
      // A session lock on a connection of its own, held while fn runs (a download): the others wait their turn.
      const started = performance.now();
      const client = await db.pool.connect().catch((error: unknown) => {
        throw asStoreError(error, started);
      });
      let broken = false;
      const lost = (): void => {
        broken = true;
      };
      client.on('error', lost);
      try {
        await client.query(`SELECT pg_advisory_lock(hashtext('ratedesk.exclusive:' || $1))`, [name]);
        try {
          return await fn();
        } finally {
          await client
            .query(`SELECT pg_advisory_unlock(hashtext('ratedesk.exclusive:' || $1))`, [name])
            .catch(() => {
              broken = true;
            });
        }
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    async token(name, nowMs) {
      const row = await db.first<{ token: string; refresh_at_ms: number }>(
        'SELECT token, refresh_at_ms FROM carrier_tokens WHERE name = $1 AND refresh_at_ms > $2',
        [name, nowMs],
      );
      // A token sealed with a key this instance does not have reads as none: it fetches its own.
      const token = row ? secrets.open(row.token, `carrier_tokens:${name}`) : '';
      return token === '' ? undefined : { token, refreshAtMs: row!.refresh_at_ms };
    },
    async putToken(name, token, refreshAtMs) {
      await db.rows(
        `INSERT INTO carrier_tokens (name, token, refresh_at_ms) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET token = excluded.token, refresh_at_ms = excluded.refresh_at_ms`,
        [name, secrets.seal(token, `carrier_tokens:${name}`), refreshAtMs],
      );
    },
  };
}
