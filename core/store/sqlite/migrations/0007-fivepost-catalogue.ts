import type { Migration } from '../migrate';

export const m0007FivePostCatalogue: Migration = {
  version: 7,
  name: '5post catalogue',
  // 5Post has no price calculator: prices come with its pickup-point catalogue, which 5Post allows to be
  // downloaded only a few times a day (core/carriers/fivepost/catalogue.ts). The last complete download per
  // namespace (carrier and host: the simulator's points must never answer for api-omni.x5.ru) is kept here,
  // so a restart quotes at once instead of downloading again. A download replaces a namespace's rows in one
  // transaction: quotes see the old catalogue or the new one, never a mix.
  // fivepost_points: one row per point; point is the validated point as JSON (type, rates in kopecks, days,
  // cell limits), or NULL with problem saying why 5Post's entry could not be read. city_key is the city
  // name normalised as the city table normalises names; zip the point's index.
  sql: `
      CREATE TABLE fivepost_catalogues (
        namespace TEXT PRIMARY KEY CHECK (length(namespace) BETWEEN 1 AND 2100),
        refreshed_at TEXT NOT NULL,
        point_count INTEGER NOT NULL CHECK (point_count >= 0),
        unreadable_count INTEGER NOT NULL CHECK (unreadable_count >= 0)
      ) STRICT;

      CREATE TABLE fivepost_points (
        namespace TEXT NOT NULL REFERENCES fivepost_catalogues(namespace) ON DELETE CASCADE,
        point_id TEXT NOT NULL CHECK (length(point_id) BETWEEN 1 AND 200),
        zip TEXT CHECK (zip IS NULL OR length(zip) BETWEEN 1 AND 20),
        city_key TEXT NOT NULL CHECK (length(city_key) <= 200),
        region TEXT NOT NULL CHECK (length(region) <= 200),
        point TEXT CHECK (point IS NULL OR json_valid(point)),
        problem TEXT CHECK (problem IS NULL OR length(problem) BETWEEN 1 AND 500),
        CHECK ((point IS NULL) <> (problem IS NULL)),
        PRIMARY KEY (namespace, point_id)
      ) STRICT;
      CREATE INDEX fivepost_points_zip ON fivepost_points (namespace, zip);
      CREATE INDEX fivepost_points_city ON fivepost_points (namespace, city_key);
    `,
};
