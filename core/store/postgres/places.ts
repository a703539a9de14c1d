// Carriers' place-directory answers and 5Post's pickup-point catalogue on the company database, shared by
// every instance: a town resolved or a catalogue downloaded by one is there for all.
import { catalogueMetaOf } from '../../carriers/fivepost/catalogue-store';
import type { ReadablePoint, StoredPoint } from '../../carriers/fivepost/points';
import type { LocationCacheStore, PickupCatalogueStore } from '../port';
import type { PgDb } from './pool';

/** As in the embedded store: a catalogue not refreshed for a week is dropped when another is stored. */
const ABANDONED_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
/** Points per INSERT statement (a catalogue has tens of thousands). */
const POINTS_PER_STATEMENT = 5_000;

const iso = (ms: number): string => new Date(ms).toISOString();

export function pgLocationCache(db: PgDb): LocationCacheStore {
  return {
    async get(namespace, want, key, nowMs) {
      const row = await db.first<{ value: string | null }>(
        `SELECT value FROM location_cache
         WHERE namespace = $1 AND want = $2 AND place_key = $3 AND expires_at > $4`,
        [namespace, want, key, iso(nowMs)],
      );
      return row ? { value: row.value } : undefined;
    },
    async put({ namespace, want, key, value, nowMs, ttlMs }) {
      await db.relaxedRows(
        `INSERT INTO location_cache (namespace, want, place_key, value, resolved_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (namespace, want, place_key) DO UPDATE SET
           value = excluded.value, resolved_at = excluded.resolved_at, expires_at = excluded.expires_at`,
        [namespace, want, key, value, iso(nowMs), iso(nowMs + ttlMs)],
      );
    },
    async sweepExpired(nowMs) {
      try {
        await db.rows('DELETE FROM location_cache WHERE expires_at <= $1', [iso(nowMs)]);
      } catch {
        // A few stale rows kept a while longer are never a reason not to start.
      }
    },
  };
}

interface PointRow {
  point_id: string;
  zip: string | null;
  city_key: string;
  region: string;
  point: string | null;
  problem: string | null;
}

const fromRow = (r: PointRow): StoredPoint => ({
  id: r.point_id,
  zip: r.zip,
  cityKey: r.city_key,
  region: r.region,
  point: r.point === null ? null : (JSON.parse(r.point) as ReadablePoint),
  problem: r.problem,
});

const SELECT_POINTS = 'SELECT point_id, zip, city_key, region, point, problem FROM fivepost_points';

export function pgPickupCatalogue(db: PgDb): PickupCatalogueStore {
  return {
    async meta(namespace) {
      const row = await db.first<{ refreshed_at: string; point_count: number; unreadable_count: number }>(
        'SELECT refreshed_at, point_count, unreadable_count FROM fivepost_catalogues WHERE namespace = $1',
        [namespace],
      );
      return row
        ? {
            refreshedAtMs: Date.parse(row.refreshed_at),
            points: row.point_count,
            unreadable: row.unreadable_count,
          }
        : undefined;
    },
    // One transaction: quotes on every instance see the old catalogue or the new one, never a mix.
    replace: (namespace, points, nowMs) =>
      db.tx(async (c) => {
        await c.query('DELETE FROM fivepost_catalogues WHERE namespace = $1', [namespace]);
        await c.query('DELETE FROM fivepost_catalogues WHERE refreshed_at < $1', [
          iso(nowMs - ABANDONED_AFTER_MS),
        ]);
        const meta = catalogueMetaOf(points, nowMs);
        await c.query(
          `INSERT INTO fivepost_catalogues (namespace, refreshed_at, point_count, unreadable_count)
           VALUES ($1, $2, $3, $4)`,
          [namespace, iso(nowMs), meta.points, meta.unreadable],
        );
        // The last of several points with one id wins, as INSERT OR REPLACE does in the embedded store.
        const unique = [...new Map(points.map((p) => [p.id, p])).values()];
        for (let i = 0; i < unique.length; i += POINTS_PER_STATEMENT) {
          const chunk = unique.slice(i, i + POINTS_PER_STATEMENT);
          await c.query(
            `INSERT INTO fivepost_points (namespace, point_id, zip, city_key, region, point, problem)
             SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
            [
              namespace,
              chunk.map((p) => p.id),
              chunk.map((p) => p.zip),
              chunk.map((p) => p.cityKey),
              chunk.map((p) => p.region),
              chunk.map((p) => (p.point ? JSON.stringify(p.point) : null)),
              chunk.map((p) => p.problem),
            ],
          );
        }
      }),
    byZip: async (namespace, zip) =>
      (await db.rows<PointRow>(`${SELECT_POINTS} WHERE namespace = $1 AND zip = $2`, [namespace, zip])).map(
        fromRow,
      ),
    byCity: async (namespace, cityKey) =>
      (
        await db.rows<PointRow>(`${SELECT_POINTS} WHERE namespace = $1 AND city_key = $2`, [
          namespace,
          cityKey,
        ])
      ).map(fromRow),
  };
}
