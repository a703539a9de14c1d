// The pickup-point directories' slice of the store (#21): table point_directories (migration 0009), one
// carrier's points of one town as JSON, replaced whole by each refresh (core/points/search.ts).
import type { DirectoryPoint } from '../../carriers/point-directory';
import type { PointDirectoriesStore } from '../port';
import type { Db } from './open';
import type { Sync } from './sync';

interface Row {
  fetched_at: string;
  points: string;
}

export function pointDirectoriesRepo(db: Db): Sync<PointDirectoriesStore> {
  const select = db.prepare<[string, string], Row>(
    'SELECT fetched_at, points FROM point_directories WHERE namespace = ? AND town_key = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO point_directories (namespace, town_key, fetched_at, point_count, points)
     VALUES (@namespace, @town_key, @fetched_at, @point_count, @points)
     ON CONFLICT (namespace, town_key) DO UPDATE SET
       fetched_at = excluded.fetched_at, point_count = excluded.point_count, points = excluded.points`,
  );
  return {
    get(namespace, townKey) {
      const row = select.get(namespace, townKey);
      return row
        ? { fetchedAtMs: Date.parse(row.fetched_at), points: JSON.parse(row.points) as DirectoryPoint[] }
        : undefined;
    },
    put(namespace, townKey, { fetchedAtMs, points }) {
      upsert.run({
        namespace,
        town_key: townKey,
        fetched_at: new Date(fetchedAtMs).toISOString(),
        point_count: points.length,
        points: JSON.stringify(points),
      });
    },
  };
}
