// Carriers' pickup-point directories (#21) on the company database: a town's directory fetched by one
// instance is there for all (table point_directories, migration 0004).
import type { DirectoryPoint } from '../../carriers/point-directory';
import type { PointDirectoriesStore } from '../port';
import type { PgDb } from './pool';

export function pgPointDirectories(db: PgDb): PointDirectoriesStore {
  return {
    async get(namespace, townKey) {
      const row = await db.first<{ fetched_at: string; points: string }>(
        'SELECT fetched_at, points FROM point_directories WHERE namespace = $1 AND town_key = $2',
        [namespace, townKey],
      );
      return row
        ? { fetchedAtMs: Date.parse(row.fetched_at), points: JSON.parse(row.points) as DirectoryPoint[] }
        : undefined;
    },
    // On the relaxed pool, as the location cache: a cache row lost in a crash is fetched again.
    async put(namespace, townKey, { fetchedAtMs, points }) {
      await db.relaxedRows(
        `INSERT INTO point_directories (namespace, town_key, fetched_at, point_count, points)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (namespace, town_key) DO UPDATE SET
           fetched_at = excluded.fetched_at, point_count = excluded.point_count, points = excluded.points`,
        [namespace, townKey, new Date(fetchedAtMs).toISOString(), points.length, JSON.stringify(points)],
      );
    },
  };
}
