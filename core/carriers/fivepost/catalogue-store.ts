// Where the 5Post catalogue is kept between downloads: the data file's fivepost_* tables (migration 0007) in
// the running service, a process-wide memory map otherwise (tests, adapters built without a store). Keyed by
// namespace (carrier and host).
import type { Db } from '../../store/open';
import type { ReadablePoint, StoredPoint } from './points';

export interface CatalogueMeta {
  refreshedAtMs: number;
  points: number;
  unreadable: number;
}

export interface FivePostCatalogueStore {
  meta(namespace: string): CatalogueMeta | undefined;
  /** Replaces the namespace's catalogue whole (one transaction in SQLite). */
  replace(namespace: string, points: readonly StoredPoint[], nowMs: number): void;
  byZip(namespace: string, zip: string): StoredPoint[];
  byCity(namespace: string, cityKey: string): StoredPoint[];
}

/**
 * Catalogues not refreshed for this long are dropped when another is stored: the sandbox simulator gets a new
 * port (namespace) at every start, and a host no longer configured should not keep its points for ever.
 */
export const ABANDONED_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

const shared = new Map<string, { meta: CatalogueMeta; points: StoredPoint[] }>();

export function memoryCatalogueStore(): FivePostCatalogueStore {
  return {
    meta: (namespace) => shared.get(namespace)?.meta,
    replace(namespace, points, nowMs) {
      shared.set(namespace, { meta: metaOf(points, nowMs), points: [...points] });
    },
    byZip: (namespace, zip) => shared.get(namespace)?.points.filter((p) => p.zip === zip) ?? [],
    byCity: (namespace, cityKey) => shared.get(namespace)?.points.filter((p) => p.cityKey === cityKey) ?? [],
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

export function sqliteCatalogueStore(db: Db): FivePostCatalogueStore {
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
    const meta = metaOf(points, nowMs);
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

function metaOf(points: readonly StoredPoint[], nowMs: number): CatalogueMeta {
  const unreadable = points.filter((p) => p.point === null).length;
  return { refreshedAtMs: nowMs, points: points.length - unreadable, unreadable };
}
