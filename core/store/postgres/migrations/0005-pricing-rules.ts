import type { PgMigration } from '../migrate';

export const m0005PricingRules: PgMigration = {
  version: 5,
  name: 'resale pricing rules',
  // The data file's migration 0010, on the company database. One rule per owner (an account, or the desk:
  // account_id NULL) and carrier (NULL: all of that owner's other carriers), unique on the values with NULL as
  // 0 and '' so an upsert from two instances meets one row. A rule goes with its account (CASCADE). No change
  // generation: the quote path reads an account's rules with every quote (one indexed read), so no instance
  // keeps a copy that could go stale.
  sql: `
    CREATE TABLE pricing_rules (
      account_id integer REFERENCES accounts (id) ON DELETE CASCADE,
      carrier text COLLATE "C" CHECK (carrier IS NULL OR length(carrier) BETWEEN 1 AND 40),
      markup_percent double precision NOT NULL CHECK (markup_percent BETWEEN 0 AND 1000),
      markup_kopecks bigint NOT NULL CHECK (markup_kopecks BETWEEN 0 AND 1000000000),
      packaging_kopecks bigint NOT NULL CHECK (packaging_kopecks BETWEEN 0 AND 1000000000),
      min_kopecks bigint CHECK (min_kopecks BETWEEN 0 AND 1000000000),
      max_kopecks bigint CHECK (max_kopecks BETWEEN 0 AND 1000000000),
      rounding text NOT NULL CHECK (rounding IN ('none', '1', '5', '10')),
      CHECK (min_kopecks IS NULL OR max_kopecks IS NULL OR min_kopecks <= max_kopecks)
    );
    CREATE UNIQUE INDEX pricing_rules_owner ON pricing_rules ((COALESCE(account_id, 0)), (COALESCE(carrier, '')));
  `,
};
