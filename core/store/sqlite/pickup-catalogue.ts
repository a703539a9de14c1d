// The pickup-point catalogue's slice of the store: the data file's fivepost_* tables (migration 0007), where
// 5Post's catalogue is kept between downloads so a restart quotes at once (core/carriers/fivepost/catalogue.ts).
import { catalogueMetaOf } from '../../carriers/fivepost/catalogue-store';
import type { ReadablePoint, StoredPoint } from '../../carriers/fivepost/points';
import type { PickupCatalogueStore } from '../port';
import type { Db } from './open';
import type { Sync } from './sync';

/**
 * Catalogues not refreshed for this long are dropped when another is stored: the sandbox simulator gets a new
 * port (namespace) at every start, and a host no longer configured should not keep its points for ever.
 */
export const ABANDONED_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

interface PointRow {
  point_id: string;
  zip: string | null;
  city_key: string;
  region: string;
  point: string | null;
  problem: string | null;
}

export function pickupCatalogueRepo(db: Db): Sync<PickupCatalogueStore> {
  const selectMeta = db.prepare<
    [string],
    { refreshed_at: string; point_count: number; unreadable_count: number }
  >('SELECT refreshed_at, point_count, unreadable_count FROM fivepost_catalogues WHERE namespace = ?');
  const byZip = db.prepare<[string, string], PointRow>(
    'SELECT point_id, zip, city_key, region, point, problem FROM fivepost_points WHERE namespace = ? AND zip = ?',
  );
  const byCity = db.prepare<[string, string], PointRow>(
    'SELECT point_id, zip, city_key, region, point, problem FROM fivepost_points WHERE namespace = ? AND city_key = ?',
  );
  const deleteCatalogue = db.prepare('DELETE FROM fivepost_catalogues WHERE namespace = ?');
  const deleteAbandoned = db.prepare('DELETE FROM fivepost_catalogues WHERE refreshed_at < ?');
  const insertMeta = db.prepare(
    `INSERT INTO fivepost_catalogues (namespace, refreshed_at, point_count, unreadable_count)
     VALUES (?, ?, ?, ?)`,
  );
  const insertPoint = db.prepare(
    `INSERT OR REPLACE INTO fivepost_points (namespace, point_id, zip, city_key, region, point, problem)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const replace = db.transaction((namespace: string, points: readonly StoredPoint[], nowMs: number) => {
    // Points go with their catalogue (ON DELETE CASCADE).
    deleteCatalogue.run(namespace);
    deleteAbandoned.run(new Date(nowMs - ABANDONED_AFTER_MS).toISOString());
    const meta = catalogueMetaOf(points, nowMs);
    insertMeta.run(namespace, new Date(nowMs).toISOString(), meta.points, meta.unreadable);
    for (const p of points) {
      insertPoint.run(
        namespace,
        p.id,
        p.zip,
        p.cityKey,
        p.region,
        p.point ? JSON.stringify(p.point) : null,
        p.problem,
      );
    }
  });
  const fromRow = (r: PointRow): StoredPoint => ({
    id: r.point_id,
    zip: r.zip,
    cityKey: r.city_key,
    region: r.region,
    point: r.point === null ? null : (JSON.parse(r.point) as ReadablePoint),
    problem: r.problem,
  });
  return {
    meta(namespace) {
      const row = selectMeta.get(namespace);
      return row
        ? {
            refreshedAtMs: Date.parse(row.refreshed_at),
            points: row.point_count,
            unreadable: row.unreadable_count,
          }
        : undefined;
    },
    replace: (namespace, points, nowMs) => replace(namespace, points, nowMs),
    byZip: (namespace, zip) => byZip.all(namespace, zip).map(fromRow),
    byCity: (namespace, cityKey) => byCity.all(namespace, cityKey).map(fromRow),
  };
}
