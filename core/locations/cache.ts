// Where the location resolver keeps what carriers' directories answered: in SQLite (table location_cache,
// migration 0005) for the running service, so a restart does not ask CDEK again for every town; in memory for
// tests and for adapters built without a store.
import type { Db } from '../store/open';

export interface CachedAnswer {
  /** The identifier, or null: the directory said it does not know the place. */
  value: string | null;
}

export interface CacheEntry {
  namespace: string;
  want: string;
  key: string;
  value: string | null;
  nowMs: number;
  ttlMs: number;
}

export interface LocationCache {
  /** The live entry for (namespace, want, key), or undefined when there is none or it has expired. */
  get(namespace: string, want: string, key: string, nowMs: number): CachedAnswer | undefined;
  put(entry: CacheEntry): void;
}

/** A bounded in-memory cache; the oldest entry goes first when it is full. */
export function memoryLocationCache(limit = 1024): LocationCache {
  const entries = new Map<string, { value: string | null; expiresAtMs: number }>();
  const id = (namespace: string, want: string, key: string): string => JSON.stringify([namespace, want, key]);
  return {
    get(namespace, want, key, nowMs) {
      const k = id(namespace, want, key);
      const hit = entries.get(k);
      if (!hit) return undefined;
      if (hit.expiresAtMs <= nowMs) {
        entries.delete(k);
        return undefined;
      }
      return { value: hit.value };
    },
    put({ namespace, want, key, value, nowMs, ttlMs }) {
      const k = id(namespace, want, key);
      entries.delete(k);
      if (entries.size >= limit) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(k, { value, expiresAtMs: nowMs + ttlMs });
    },
  };
}

interface Row {
  value: string | null;
}

/**
 * The data file's location_cache table. Expired rows are ignored on read and replaced on write; rows that
 * expired long ago are swept when the cache is opened, so the table only holds places asked about lately.
 */
export function sqliteLocationCache(db: Db, nowMs: number = Date.now()): LocationCache {
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
  try {
    db.prepare('DELETE FROM location_cache WHERE expires_at <= ?').run(iso(nowMs));
  } catch {
    // A locked or read-only file only keeps a few stale rows a while longer; never a reason not to start.
  }
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
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
