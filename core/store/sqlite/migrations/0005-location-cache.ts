import type { Migration } from '../migrate';

export const m0005LocationCache: Migration = {
  version: 5,
  name: 'location cache',
  // What carriers' own directories answered about a place (core/locations/resolver.ts): a CDEK city code for
  // a town the built-in table lacks, and the like. Keyed by namespace (carrier and host: the simulator's
  // made-up codes must never answer for the live API), what was asked for, and the normalised place. value
  // NULL records "the directory does not know this place", kept for a shorter time than a found answer.
  // Times are ISO-8601 UTC text, which sorts like time, so expired rows are found by a range on the index.
  sql: `
      CREATE TABLE location_cache (
        namespace TEXT NOT NULL CHECK (length(namespace) BETWEEN 1 AND 2100),
        want TEXT NOT NULL CHECK (length(want) BETWEEN 1 AND 40),
        place_key TEXT NOT NULL CHECK (length(place_key) BETWEEN 1 AND 400),
        value TEXT CHECK (value IS NULL OR length(value) BETWEEN 1 AND 200),
        resolved_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (namespace, want, place_key)
      ) STRICT;
      CREATE INDEX location_cache_expiry ON location_cache (expires_at);
    `,
};
