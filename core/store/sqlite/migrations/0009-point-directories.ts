import type { Migration } from '../migrate';

export const m0009PointDirectories: Migration = {
  version: 9,
  name: 'pickup-point directories',
  // #21: a carrier's pickup points of one town (core/points/search.ts), kept between refreshes so a restart
  // answers at once and the carrier is asked once a day (setting points.refresh_hours), not per search. One row
  // per (namespace, town): namespace is carrier and host (the simulator's points must never answer for the live
  // API), town_key the city table's name and region normalised. points is the mapped list as JSON, replaced
  // whole by a refresh, so a reader sees the old list or the new one. A cache: migrate-to leaves it behind.
  sql: `
      CREATE TABLE point_directories (
        namespace TEXT NOT NULL CHECK (length(namespace) BETWEEN 1 AND 2100),
        town_key TEXT NOT NULL CHECK (length(town_key) BETWEEN 1 AND 400),
        fetched_at TEXT NOT NULL,
        point_count INTEGER NOT NULL CHECK (point_count >= 0),
        points TEXT NOT NULL CHECK (json_valid(points)),
        PRIMARY KEY (namespace, town_key)
      ) STRICT;
    `,
};
