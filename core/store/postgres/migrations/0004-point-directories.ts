import type { PgMigration } from '../migrate';

export const m0004PointDirectories: PgMigration = {
  version: 4,
  name: 'pickup-point directories',
  // The data file's migration 0009 on the company database (#21): a carrier's pickup points of one town,
  // fetched by one instance and read by all, replaced whole by each refresh (core/points/search.ts). points is
  // text holding JSON, as fivepost_points.point: the store only keeps and returns it, never queries inside it.
  sql: `
    CREATE TABLE point_directories (
      namespace text NOT NULL CHECK (length(namespace) BETWEEN 1 AND 2100),
      town_key text NOT NULL CHECK (length(town_key) BETWEEN 1 AND 400),
      fetched_at text NOT NULL,
      point_count integer NOT NULL CHECK (point_count >= 0),
      points text NOT NULL,
      PRIMARY KEY (namespace, town_key)
    );
  `,
};
