// The location cache's slice of the store: table location_cache (migration 0005), what carriers' directories
// answered about places, so a restart does not ask CDEK again for every town (core/locations/resolver.ts).
import type { LocationCacheStore } from '../port';
import type { Db } from './open';
import type { Sync } from './sync';

interface Row {
  value: string | null;
}

/** Expired rows are ignored on read and replaced on write. */
export function locationCacheRepo(db: Db): Sync<LocationCacheStore> {
  const select = db.prepare<[string, string, string, string], Row>(
    `SELECT value FROM location_cache
      WHERE namespace = ? AND want = ? AND place_key = ? AND expires_at > ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO location_cache (namespace, want, place_key, value, resolved_at, expires_at)
     VALUES (@namespace, @want, @key, @value, @resolved_at, @expires_at)
     ON CONFLICT (namespace, want, place_key) DO UPDATE SET
       value = excluded.value, resolved_at = excluded.resolved_at, expires_at = excluded.expires_at`,
  );
  return {
    get(namespace, want, key, now) {
      const row = select.get(namespace, want, key, iso(now));
      return row ? { value: row.value } : undefined;
    },
    put({ namespace, want, key, value, nowMs: now, ttlMs }) {
      upsert.run({
        namespace,
        want,
        key,
        value,
        resolved_at: iso(now),
        expires_at: iso(now + ttlMs),
      });
    },
    sweepExpired(nowMs) {
      try {
        // Prepared here, as before, not with the others: the sweep runs once per start.
        db.prepare('DELETE FROM location_cache WHERE expires_at <= ?').run(iso(nowMs));
      } catch {
        // A locked or read-only file only keeps a few stale rows a while longer; never a reason not to start.
      }
    },
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
