// A desk's rows written into an empty company database (`admin migrate-to`, core/store/migrate-to.ts): one
// transaction, so a failure anywhere (a refused row, a lost connection, figures that do not match) leaves the
// database as empty as it was. Ids are kept as the desk gave them, and every counter continues after the
// highest id the desk ever gave, so no new row takes an old row's id.
import type pg from 'pg';
import {
  DESK_TABLES,
  DeskCopyMismatchError,
  IDENTITY_TABLES,
  TargetNotEmptyError,
  figureDifferences,
  type AccountFigure,
  type DeskFigures,
  type DeskImport,
  type DeskRows,
  type DeskTable,
} from '../desk-copy';
import type { PgDb, Queryable } from './pool';

/** Each table's columns with their type, in the order written (an unnest of one array per column). */
const COLUMNS: { [T in DeskTable]: ReadonlyArray<readonly [keyof DeskRows[T] & string, string]> } = {
  accounts: [
    ['id', 'integer'],
    ['name', 'text'],
    ['tier', 'text'],
    ['balance', 'bigint'],
    ['last_package', 'bigint'],
    ['threshold', 'text'],
    ['created_at', 'text'],
  ],
  rate_limit_overrides: [
    ['account_id', 'integer'],
    ['rps', 'double precision'],
    ['burst', 'integer'],
    ['updated_at', 'text'],
  ],
  api_keys: [
    ['id', 'text'],
    ['account_id', 'integer'],
    ['name', 'text'],
    ['digest', 'text'],
    ['prefix', 'text'],
    ['last_four', 'text'],
    ['origin', 'text'],
    ['created_at', 'text'],
    ['last_used_at', 'text'],
    ['revoked_at', 'text'],
  ],
  ledger: [
    ['id', 'bigint'],
    ['account_id', 'integer'],
    ['delta', 'bigint'],
    ['kind', 'text'],
    ['request_id', 'text'],
    ['note', 'text'],
    ['created_at', 'text'],
  ],
  settings: [
    ['name', 'text'],
    ['value', 'text'],
    ['updated_at', 'text'],
  ],
  // Completed records only (a desk keeps its claims in memory): no holder, no lease.
  idempotency: [
    ['account_id', 'integer'],
    ['idem_key', 'text'],
    ['fingerprint', 'text'],
    ['status', 'integer'],
    ['body', 'text'],
    ['request_id', 'text'],
    ['created_at_ms', 'bigint'],
  ],
  quotes: [
    ['id', 'bigint'],
    ['request_id', 'text'],
    ['source', 'text'],
    ['created_at', 'text'],
    ['from_city', 'text'],
    ['to_city', 'text'],
    ['weight_grams', 'integer'],
    ['cheapest_kopecks', 'bigint'],
    ['carriers', 'text'],
    ['sandbox', 'smallint'],
    ['shipment_json', 'text'],
    ['result_json', 'text'],
    ['author', 'text'],
    ['warehouse', 'text'],
  ],
  notifications: [
    ['id', 'bigint'],
    ['account_id', 'integer'],
    ['kind', 'text'],
    ['threshold', 'bigint'],
    ['balance', 'bigint'],
    ['created_at', 'text'],
  ],
  carrier_health: [
    ['code', 'text'],
    ['status', 'text'],
    ['consecutive_failures', 'integer'],
    ['last_error', 'text'],
    ['last_success_at', 'text'],
    ['last_failure_at', 'text'],
    ['latency_ms_median', 'integer'],
  ],
  location_cache: [
    ['namespace', 'text'],
    ['want', 'text'],
    ['place_key', 'text'],
    ['value', 'text'],
    ['resolved_at', 'text'],
    ['expires_at', 'text'],
  ],
  rate_cards: [
    ['id', 'integer'],
    ['code', 'text'],
    ['name', 'text'],
    ['volumetric_divisor', 'integer'],
    ['created_at', 'text'],
  ],
  rate_card_rows: [
    ['card_id', 'integer'],
    ['line', 'integer'],
    ['from_kind', 'text'],
    ['from_value', 'text'],
    ['to_kind', 'text'],
    ['to_value', 'text'],
    ['max_weight_grams', 'integer'],
    ['price_kopecks', 'bigint'],
    ['days_min', 'integer'],
    ['days_max', 'integer'],
    ['delivery_type', 'text'],
    ['service_code', 'text'],
    ['service_name', 'text'],
    ['declared_value_bp', 'integer'],
  ],
  fivepost_catalogues: [
    ['namespace', 'text'],
    ['refreshed_at', 'text'],
    ['point_count', 'integer'],
    ['unreadable_count', 'integer'],
  ],
  fivepost_points: [
    ['namespace', 'text'],
    ['point_id', 'text'],
    ['zip', 'text'],
    ['city_key', 'text'],
    ['region', 'text'],
    ['point', 'text'],
    ['problem', 'text'],
  ],
  users: [
    ['id', 'integer'],
    ['name', 'text'],
    ['name_key', 'text'],
    ['role', 'text'],
    ['created_at', 'text'],
    ['disabled_at', 'text'],
  ],
  devices: [
    ['id', 'text'],
    ['user_id', 'integer'],
    ['token_digest', 'text'],
    ['name', 'text'],
    ['created_at', 'text'],
    ['last_seen_at', 'text'],
    ['revoked_at', 'text'],
  ],
  warehouses: [
    ['id', 'integer'],
    ['name', 'text'],
    ['name_key', 'text'],
    ['city', 'text'],
    ['postal_code', 'text'],
    ['address', 'text'],
    ['default_carriers_json', 'text'],
    ['box_presets_json', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
  audit: [
    ['id', 'bigint'],
    ['at', 'text'],
    ['actor_kind', 'text'],
    ['actor', 'text'],
    ['action', 'text'],
    ['target', 'text'],
    ['detail_json', 'text'],
  ],
  pricing_rules: [
    ['account_id', 'integer'],
    ['carrier', 'text'],
    ['markup_percent', 'double precision'],
    ['markup_kopecks', 'bigint'],
    ['packaging_kopecks', 'bigint'],
    ['min_kopecks', 'bigint'],
    ['max_kopecks', 'bigint'],
    ['rounding', 'text'],
  ],
};

const IDENTITY = new Set<DeskTable>(IDENTITY_TABLES);

function insertSql(table: DeskTable): string {
  const columns = COLUMNS[table];
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  // The desk's ids are kept: GENERATED ALWAYS columns take them only when told to.
  const overriding = IDENTITY.has(table) ? ' OVERRIDING SYSTEM VALUE' : '';
  return `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')})${overriding}
          SELECT * FROM unnest(${arrays})`;
}

/** Rows in every table the copy writes. */
async function rowCounts(q: Queryable): Promise<Record<DeskTable, number>> {
  const sql = `SELECT ${DESK_TABLES.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`;
  return (await q.query<Record<DeskTable, number>>(sql)).rows[0]!;
}

/** The figures the copy is checked by (desk-copy.ts), as the database holds them now. */
export async function deskFigures(q: Queryable): Promise<DeskFigures> {
  const accounts = await q.query<AccountFigure>(
    `SELECT a.id, a.name, a.balance,
            COALESCE((SELECT SUM(l.delta) FROM ledger l WHERE l.account_id = a.id), 0)::bigint AS ledger_sum
     FROM accounts a ORDER BY a.id`,
  );
  return { rows: await rowCounts(q), accounts: accounts.rows };
}

/**
 * Copies `input` into this database in one transaction and returns the figures it committed with. Refused
 * (TargetNotEmptyError) when any table it writes already has a row; rolled back (DeskCopyMismatchError) when
 * the figures differ from `input.expected`. `where` names the database in messages.
 */
export async function importDesk(db: PgDb, where: string, input: DeskImport): Promise<DeskFigures> {
  return db.tx(async (c) => {
    // A connection lost between two statements (while a chunk is read from the desk) is reported as an
    // 'error' event of the checked-out client, which nothing else listens to here: without a listener the
    // process would die of it. The next statement fails instead, and the transaction is gone with the link.
    const lost = (): void => {};
    c.on('error', lost);
    try {
      return await copyAll(c, where, input);
    } finally {
      c.off('error', lost);
    }
  });
}

async function copyAll(c: pg.PoolClient, where: string, input: DeskImport): Promise<DeskFigures> {
  // Self-exclusive: a second migrate-to waits, then finds the rows and refuses; an instance starting meanwhile
  // waits to give the database its default account, then finds accounts and gives none.
  await c.query('LOCK TABLE accounts, api_keys, ledger IN SHARE ROW EXCLUSIVE MODE');
  const found = Object.entries(await rowCounts(c)).filter(([, n]) => n > 0);
  if (found.length > 0) throw new TargetNotEmptyError(where, Object.fromEntries(found));

  for (const table of DESK_TABLES) await copyTable(c, table, input);
  for (const table of IDENTITY_TABLES) {
    const floor = input.identityFloors[table];
    await c.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), $1, $2)`, [
      Math.max(floor, 1),
      floor > 0,
    ]);
  }
  const actual = await deskFigures(c);
  const problems = figureDifferences(input.expected, actual);
  if (problems.length > 0) throw new DeskCopyMismatchError(problems);
  return actual;
}

async function copyTable<T extends DeskTable>(c: pg.PoolClient, table: T, input: DeskImport): Promise<void> {
  const sql = insertSql(table);
  const columns = COLUMNS[table];
  let written = 0;
  for (const chunk of input.chunks(table)) {
    if (chunk.length === 0) continue;
    const arrays = columns.map(([name]) => chunk.map((row) => row[name]));
    try {
      await c.query(sql, arrays);
    } catch (error) {
      const e = error as Error & { code?: string };
      // Keeps the driver's code, so a lost connection still reads as one (pool.ts asStoreError).
      throw Object.assign(
        new Error(`writing ${table} (after ${written} of its rows): ${e.message}`, { cause: error }),
        e.code ? { code: e.code } : {},
      );
    }
    written += chunk.length;
    await input.onProgress?.(table, written);
  }
}
