// What moves when a desk's data folder becomes a company database (`admin migrate-to`, migrate-to.ts): the
// tables, their rows as both implementations store them (the PostgreSQL schema mirrors the data file's,
// postgres/migrations/0001-schema.ts), and the figures both sides must agree on. The SQLite implementation
// reads them (sqlite/export-desk.ts), the PostgreSQL one writes them (postgres/import-desk.ts); neither knows
// the other, and nothing here knows SQL.
import type { Tier } from '../contract/limits';
import type { Threshold } from '../contract/low-balance';
import type { PricingRule } from '../contract/pricing';
import type { AuditRow, CarrierHealthRow, IdempotencyRecord, NewQuote, UserRole, WarehouseRow } from './rows';

/** In the order they are written: every table after those its rows refer to. */
export const DESK_TABLES = [
  'accounts',
  'rate_limit_overrides',
  'api_keys',
  'ledger',
  'settings',
  'idempotency',
  'quotes',
  'notifications',
  'carrier_health',
  'location_cache',
  'rate_cards',
  'rate_card_rows',
  'fivepost_catalogues',
  'fivepost_points',
  // #20: enrolled desks keep working on the company server (their token digests move); an unused enrolment
  // code does not move (it lives minutes: the admin issues a new one there).
  'users',
  'devices',
  'warehouses',
  'audit',
  // #21: resale rules, by account id (kept as the desk gave them) or the desk's own (null).
  'pricing_rules',
] as const;

export type DeskTable = (typeof DESK_TABLES)[number];

/** Tables whose ids a new row takes from a counter: the target's counter continues after the copied ids. */
export const IDENTITY_TABLES = [
  'accounts',
  'ledger',
  'quotes',
  'notifications',
  'rate_cards',
  'users',
  'warehouses',
  'audit',
] as const;
export type IdentityTable = (typeof IDENTITY_TABLES)[number];

export interface DeskRows {
  accounts: {
    id: number;
    name: string;
    tier: Tier;
    balance: number;
    last_package: number | null;
    threshold: Threshold;
    created_at: string;
  };
  rate_limit_overrides: { account_id: number; rps: number; burst: number; updated_at: string };
  api_keys: {
    id: string;
    account_id: number;
    name: string;
    digest: string;
    prefix: string;
    last_four: string;
    origin: 'created' | 'imported';
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
  ledger: {
    id: number;
    account_id: number;
    delta: number;
    kind: 'opening' | 'topup' | 'rates';
    request_id: string | null;
    note: string | null;
    created_at: string;
  };
  /** A secret's value as stored (sealed, or plain where nothing sealed it): migrate-to.ts decides. */
  settings: { name: string; value: string; updated_at: string };
  idempotency: IdempotencyRecord;
  quotes: NewQuote & { id: number };
  notifications: {
    id: number;
    account_id: number;
    kind: 'low_balance';
    threshold: number;
    balance: number;
    created_at: string;
  };
  carrier_health: CarrierHealthRow;
  location_cache: {
    namespace: string;
    want: string;
    place_key: string;
    value: string | null;
    resolved_at: string;
    expires_at: string;
  };
  rate_cards: { id: number; code: string; name: string; volumetric_divisor: number; created_at: string };
  rate_card_rows: {
    card_id: number;
    line: number;
    from_kind: string;
    from_value: string;
    to_kind: string;
    to_value: string;
    max_weight_grams: number;
    price_kopecks: number;
    days_min: number;
    days_max: number;
    delivery_type: string;
    service_code: string | null;
    service_name: string | null;
    declared_value_bp: number;
  };
  fivepost_catalogues: {
    namespace: string;
    refreshed_at: string;
    point_count: number;
    unreadable_count: number;
  };
  fivepost_points: {
    namespace: string;
    point_id: string;
    zip: string | null;
    city_key: string;
    region: string;
    point: string | null;
    problem: string | null;
  };
  users: {
    id: number;
    name: string;
    name_key: string;
    role: UserRole;
    created_at: string;
    disabled_at: string | null;
  };
  devices: {
    id: string;
    user_id: number;
    token_digest: string;
    name: string;
    created_at: string;
    last_seen_at: string | null;
    revoked_at: string | null;
  };
  warehouses: WarehouseRow & { name_key: string };
  audit: AuditRow;
  pricing_rules: PricingRule;
}

/** An account as the ledger invariant sees it: its balance and the sum of its ledger rows. */
export interface AccountFigure {
  id: number;
  name: string;
  balance: number;
  ledger_sum: number;
}

/** What both sides are compared by: rows per table, and every account's balance and ledger sum. */
export interface DeskFigures {
  rows: Record<DeskTable, number>;
  /** By id. */
  accounts: AccountFigure[];
}

/** What the copy writes, chunk by chunk, and what the target must hold once it has. */
export interface DeskImport {
  /** The rows of `table` to write, in chunks, in the source's order. */
  chunks<T extends DeskTable>(table: T): Iterable<ReadonlyArray<DeskRows[T]>>;
  /** The highest id each counter ever gave in the source (a removed row's id is not given again). */
  identityFloors: Record<IdentityTable, number>;
  /** The figures the target must show before the copy commits. */
  expected: DeskFigures;
  /** After each chunk written (awaited): the table and how many of its rows are written so far. */
  onProgress?: (table: DeskTable, rows: number) => void | Promise<void>;
}

/** Rows per chunk: small for tables of large rows (a quote keeps its whole result), so a statement stays a few MB. */
export const CHUNK_ROWS: Record<DeskTable, number> = {
  accounts: 5_000,
  rate_limit_overrides: 5_000,
  api_keys: 5_000,
  ledger: 10_000,
  settings: 1_000,
  idempotency: 500,
  quotes: 500,
  notifications: 10_000,
  carrier_health: 1_000,
  location_cache: 5_000,
  rate_cards: 1_000,
  rate_card_rows: 10_000,
  fivepost_catalogues: 100,
  fivepost_points: 2_000,
  users: 5_000,
  devices: 5_000,
  warehouses: 1_000,
  audit: 5_000,
  pricing_rules: 5_000,
};

/** The differences between two sets of figures, one line each; empty when they agree. */
export function figureDifferences(expected: DeskFigures, actual: DeskFigures): string[] {
  const problems: string[] = [];
  for (const table of DESK_TABLES) {
    if (expected.rows[table] !== actual.rows[table])
      problems.push(`${table}: ${expected.rows[table]} rows expected, ${actual.rows[table]} found`);
  }
  const byId = new Map(actual.accounts.map((a) => [a.id, a]));
  for (const want of expected.accounts) {
    const got = byId.get(want.id);
    if (!got) problems.push(`account ${want.id} (${want.name}) is missing`);
    else if (got.name !== want.name || got.balance !== want.balance || got.ledger_sum !== want.ledger_sum)
      problems.push(
        `account ${want.id} (${want.name}): balance ${want.balance} and ledger sum ${want.ledger_sum} expected, ` +
          `${got.name}: balance ${got.balance} and ledger sum ${got.ledger_sum} found`,
      );
    byId.delete(want.id);
  }
  for (const extra of byId.values()) problems.push(`account ${extra.id} (${extra.name}) was not expected`);
  return problems;
}

/** The copy's figures on the target do not match the source: the transaction was rolled back. */
export class DeskCopyMismatchError extends Error {
  override readonly name = 'DeskCopyMismatchError';
  constructor(readonly problems: string[]) {
    super(
      `the copy does not match the desk (${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}); ` +
        'it was rolled back, so the company database is still empty',
    );
  }
}

/** The target already holds data: nothing was written. */
export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
  constructor(
    readonly where: string,
    readonly found: Partial<Record<DeskTable, number>>,
  ) {
    const what = Object.entries(found)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    super(
      `the company database ${where} is not empty (rows: ${what}); nothing was copied. migrate-to fills a new, ` +
        'empty database only: create one (createdb) and run migrate-to before any serve or admin command ' +
        'opens it (they give a new database its default account)',
    );
  }
}
