// Where the location resolver keeps what carriers' directories answered: in the data file for the running
// service (the store's LocationCacheStore, core/store/sqlite/location-cache.ts, passed in as this interface), so a
// restart does not ask CDEK again for every town; in memory for tests and for adapters built without a store.

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

/** What the resolver needs of a cache: the data file's table in the service (a store slice), memory otherwise. */
export interface LocationCache {
  /** The live entry for (namespace, want, key), or undefined when there is none or it has expired. */
  get(namespace: string, want: string, key: string, nowMs: number): Promise<CachedAnswer | undefined>;
  put(entry: CacheEntry): Promise<void>;
}

/** A bounded in-memory cache; the oldest entry goes first when it is full. */
export function memoryLocationCache(limit = 1024): LocationCache {
  const entries = new Map<string, { value: string | null; expiresAtMs: number }>();
  const id = (namespace: string, want: string, key: string): string => JSON.stringify([namespace, want, key]);
  return {
    get(namespace, want, key, nowMs) {
      const k = id(namespace, want, key);
      const hit = entries.get(k);
      if (!hit) return Promise.resolve(undefined);
      if (hit.expiresAtMs <= nowMs) {
        entries.delete(k);
        return Promise.resolve(undefined);
      }
      return Promise.resolve({ value: hit.value });
    },
    async put({ namespace, want, key, value, nowMs, ttlMs }) {
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
