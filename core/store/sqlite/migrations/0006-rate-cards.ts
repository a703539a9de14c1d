import type { Migration } from '../migrate';

export const m0006RateCards: Migration = {
  version: 6,
  name: 'rate cards',
  // A rate card is kept as its parsed rows, not as the file: the file was checked whole at import, and quotes
  // read rows. A re-import deletes the card (its rows go with it, ON DELETE CASCADE) and inserts the new one
  // in one transaction; AUTOINCREMENT never reuses an id, so a card's id says which version it is (the
  // running service rebuilds a card's adapter only when its id changes).
  // from/to: kind 'any' ('*', value ''), 'prefix' (1–6 digits) or 'city' (the name as written in the file,
  // matched through the city table at quote time). declared_value_bp: hundredths of a percent.
  sql: `
      CREATE TABLE rate_cards (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code TEXT NOT NULL UNIQUE CHECK (length(code) BETWEEN 1 AND 40 AND code NOT GLOB '*[^a-z0-9-]*'),
        name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
        volumetric_divisor INTEGER NOT NULL CHECK (volumetric_divisor > 0),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE rate_card_rows (
        card_id INTEGER NOT NULL REFERENCES rate_cards(id) ON DELETE CASCADE,
        line INTEGER NOT NULL CHECK (line >= 2),
        from_kind TEXT NOT NULL CHECK (from_kind IN ('any', 'prefix', 'city')),
        from_value TEXT NOT NULL,
        to_kind TEXT NOT NULL CHECK (to_kind IN ('any', 'prefix', 'city')),
        to_value TEXT NOT NULL,
        max_weight_grams INTEGER NOT NULL CHECK (max_weight_grams > 0),
        price_kopecks INTEGER NOT NULL CHECK (price_kopecks >= 0),
        days_min INTEGER NOT NULL CHECK (days_min >= 0),
        days_max INTEGER NOT NULL CHECK (days_max >= days_min),
        delivery_type TEXT NOT NULL CHECK (delivery_type IN ('door', 'pickup_point', 'terminal', 'post_office', 'unknown')),
        service_code TEXT,
        service_name TEXT,
        declared_value_bp INTEGER NOT NULL CHECK (declared_value_bp BETWEEN 0 AND 10000),
        PRIMARY KEY (card_id, line)
      ) STRICT;
    `,
};
