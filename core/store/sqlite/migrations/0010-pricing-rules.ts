import type { Migration } from '../migrate';

export const m0010PricingRules: Migration = {
  version: 10,
  name: 'resale pricing rules',
  // One rule per owner (an account, or the desk: account_id NULL) and carrier (NULL: every carrier of that
  // owner without a rule of its own). A unique index cannot hold NULLs as equal, so it is on the values with
  // NULL as 0 and '' (no account has id 0, no carrier code is empty). A rule goes with its account (CASCADE),
  // though no account is removed today. The bounds are those of core/contract/pricing.ts, kept here too so no
  // writer outside the operations can store a rule the quote path would misread.
  sql: `
      CREATE TABLE pricing_rules (
        account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
        carrier TEXT CHECK (carrier IS NULL OR length(carrier) BETWEEN 1 AND 40),
        markup_percent REAL NOT NULL CHECK (markup_percent BETWEEN 0 AND 1000),
        markup_kopecks INTEGER NOT NULL CHECK (markup_kopecks BETWEEN 0 AND 1000000000),
        packaging_kopecks INTEGER NOT NULL CHECK (packaging_kopecks BETWEEN 0 AND 1000000000),
        min_kopecks INTEGER CHECK (min_kopecks BETWEEN 0 AND 1000000000),
        max_kopecks INTEGER CHECK (max_kopecks BETWEEN 0 AND 1000000000),
        rounding TEXT NOT NULL CHECK (rounding IN ('none', '1', '5', '10')),
        CHECK (min_kopecks IS NULL OR max_kopecks IS NULL OR min_kopecks <= max_kopecks)
      ) STRICT;
      CREATE UNIQUE INDEX pricing_rules_owner ON pricing_rules (COALESCE(account_id, 0), COALESCE(carrier, ''));
    `,
};
