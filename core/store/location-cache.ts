// The location cache's slice of the store: table location_cache (migration 0005), what carriers' directories
// answered about places, so a restart does not ask CDEK again for every town (core/locations/resolver.ts).
import type { LocationCache } from '../locations/cache';
import type { Db } from './open';

/**
 * What the location resolver keeps in the data file. `get` and `put` are the resolver's `LocationCache`
 * (core/locations/cache.ts declares it, so locations/ never imports the store): both run inside a quote, once
 * per place a carrier asks about, and stay synchronous — a hit must not cost an event-loop turn; an
 * asynchronous port (#18 item 1) keeps them synchronous behind an in-process copy or changes the resolver.
 */
export interface LocationCacheStore extends LocationCache {
  /**
   * Deletes the rows that expired at or before `nowMs`, so the table only holds places asked about lately.
   * Best effort: a locked or read-only file keeps a few stale rows a while longer and this never throws. Run
   * once when the service starts (off the hot path: an asynchronous port may return a Promise here).
   */
  sweepExpired(nowMs: number): void;
}

interface Row {
  value: string | null;
}

/** Expired rows are ignored on read and replaced on write. */
export function locationCacheRepo(db: Db): LocationCacheStore {
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
