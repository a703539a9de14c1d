// A desk's data file read for `admin migrate-to` (core/store/migrate-to.ts): opened read-only, checked, and
// read in one read transaction, so the rows, the figures and the id counters all come from one snapshot even
// if a desk wrote meanwhile. Nothing here writes the file: like any reader of a WAL-mode file, SQLite only
// creates its shared-memory index (-shm) and an empty -wal beside it when they are not there yet.
import { existsSync } from 'node:fs';
import {
  DESK_TABLES,
  IDENTITY_TABLES,
  type AccountFigure,
  type DeskFigures,
  type DeskRows,
  type DeskTable,
  type IdentityTable,
} from '../desk-copy';
import type { IntegrityReport } from '../port';
import { quickCheck } from './integrity';
import { checkMigrationHistory, latestVersion } from './migrate';
import { openDb, type Db } from './open';

export interface DeskExportOptions {
  /** Location-cache entries that expire by then are not moved. ISO-8601 UTC, as the table keeps time. */
  now: string;
  /** Idempotency records created before this (ms since the epoch) are past retention: not moved. */
  idempotencySinceMs: number;
}

/** Rows that stay behind on purpose, by what they are. */
export interface DeskLeftBehind {
  /** Completed idempotency records past retention: no retry may replay them any more. */
  idempotency_expired: number;
  /** Location-cache entries already expired: the next quote would ask the carrier again anyway. */
  location_cache_expired: number;
  /** Rate cards no reader sees: a staged import not published (or abandoned), a retired version. */
  rate_cards_hidden: number;
  rate_card_rows_hidden: number;
}

/** The columns read, in the order the importer writes them (postgres/import-desk.ts declares the same). */
const COLUMNS: { [T in DeskTable]: ReadonlyArray<keyof DeskRows[T]> } = {
  accounts: ['id', 'name', 'tier', 'balance', 'last_package', 'threshold', 'created_at'],
  rate_limit_overrides: ['account_id', 'rps', 'burst', 'updated_at'],
  api_keys: [
    'id',
    'account_id',
    'name',
    'digest',
    'prefix',
    'last_four',
    'origin',
    'created_at',
    'last_used_at',
    'revoked_at',
  ],
  ledger: ['id', 'account_id', 'delta', 'kind', 'request_id', 'note', 'created_at'],
  settings: ['name', 'value', 'updated_at'],
  idempotency: ['account_id', 'idem_key', 'fingerprint', 'status', 'body', 'request_id', 'created_at_ms'],
  quotes: [
    'id',
    'request_id',
    'source',
    'created_at',
    'from_city',
    'to_city',
    'weight_grams',
    'cheapest_kopecks',
    'carriers',
    'sandbox',
    'shipment_json',
    'result_json',
    'author',
    'warehouse',
  ],
  notifications: ['id', 'account_id', 'kind', 'threshold', 'balance', 'created_at'],
  carrier_health: [
    'code',
    'status',
    'consecutive_failures',
    'last_error',
    'last_success_at',
    'last_failure_at',
    'latency_ms_median',
  ],
  location_cache: ['namespace', 'want', 'place_key', 'value', 'resolved_at', 'expires_at'],
  rate_cards: ['id', 'code', 'name', 'volumetric_divisor', 'created_at'],
  rate_card_rows: [
    'card_id',
    'line',
    'from_kind',
    'from_value',
    'to_kind',
    'to_value',
    'max_weight_grams',
    'price_kopecks',
    'days_min',
    'days_max',
    'delivery_type',
    'service_code',
    'service_name',
    'declared_value_bp',
  ],
  fivepost_catalogues: ['namespace', 'refreshed_at', 'point_count', 'unreadable_count'],
  fivepost_points: ['namespace', 'point_id', 'zip', 'city_key', 'region', 'point', 'problem'],
  users: ['id', 'name', 'name_key', 'role', 'created_at', 'disabled_at'],
  devices: ['id', 'user_id', 'token_digest', 'name', 'created_at', 'last_seen_at', 'revoked_at'],
  warehouses: [
    'id',
    'name',
    'name_key',
    'city',
    'postal_code',
    'address',
    'default_carriers_json',
    'box_presets_json',
    'created_at',
    'updated_at',
  ],
  audit: ['id', 'at', 'actor_kind', 'actor', 'action', 'target', 'detail_json'],
  pricing_rules: [
    'account_id',
    'carrier',
    'markup_percent',
    'markup_kopecks',
    'packaging_kopecks',
    'min_kopecks',
    'max_kopecks',
    'rounding',
  ],
};

// A card whose name starts with char(1) is staged or retired (rate-cards.ts): no reader sees it.
const VISIBLE_CARD = 'substr(name, 1, 1) <> char(1)';

/** Which rows move (named parameters @now and @since); the rest stay behind (DeskLeftBehind). */
const MOVED: Partial<Record<DeskTable, string>> = {
  idempotency: 'created_at_ms >= @since',
  location_cache: 'expires_at > @now',
  rate_cards: VISIBLE_CARD,
  rate_card_rows: `card_id IN (SELECT id FROM rate_cards WHERE ${VISIBLE_CARD})`,
};

export class DeskExport {
  private readonly params: { now: string; since: number };

  private constructor(
    private readonly db: Db,
    readonly path: string,
    options: DeskExportOptions,
  ) {
    this.params = { now: options.now, since: options.idempotencySinceMs };
  }

  /**
   * Opens `path` read-only and starts the snapshot. Refuses a missing file, one this build must not open
   * (checkMigrationHistory), and one an older RateDesk wrote: migrating it would need a write.
   */
  static open(path: string, options: DeskExportOptions): DeskExport {
    if (!existsSync(path))
      throw new Error(
        `there is no desk data file at ${path}: --data-dir names the desk's data folder (the one holding ratedesk.db)`,
      );
    const db = openDb(path, { readonly: true });
    try {
      checkMigrationHistory(db);
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version !== latestVersion())
        throw new Error(
          `the desk data file ${path} has schema v${version}, older than this RateDesk's v${latestVersion()}, and ` +
            'migrate-to opens it read-only: open it once with this RateDesk (e.g. npm run admin -- --data-dir ' +
            'DIR accounts list), then run migrate-to again',
        );
      // Deferred: the snapshot starts at the first read below and holds until close().
      db.exec('BEGIN');
      return new DeskExport(db, path, options);
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_READONLY_DIRECTORY')
        throw new Error(
          `cannot read the desk data file ${path} from a folder this user may not write to: SQLite keeps a ` +
            "reader's index (ratedesk.db-shm) beside the file. The file itself is only read; run migrate-to " +
            "as the folder's owner, or on a copy of the stopped desk's folder",
          { cause: error },
        );
      throw error;
    }
  }

  /** PRAGMA quick_check of the file: a damaged desk is not copied. */
  integrityCheck(): IntegrityReport {
    return quickCheck(this.db);
  }

  figures(): DeskFigures {
    const rows = {} as Record<DeskTable, number>;
    for (const table of DESK_TABLES) rows[table] = this.count(table, MOVED[table]);
    const accounts = this.db
      .prepare<[], AccountFigure>(
        `SELECT a.id, a.name, a.balance,
                COALESCE((SELECT SUM(l.delta) FROM ledger l WHERE l.account_id = a.id), 0) AS ledger_sum
         FROM accounts a ORDER BY a.id`,
      )
      .all();
    return { rows, accounts };
  }

  leftBehind(): DeskLeftBehind {
    const not = (table: DeskTable): number => this.count(table, `NOT (${MOVED[table]!})`);
    return {
      idempotency_expired: not('idempotency'),
      location_cache_expired: not('location_cache'),
      rate_cards_hidden: not('rate_cards'),
      rate_card_rows_hidden: not('rate_card_rows'),
    };
  }

  /**
   * The highest id each counter gave: max(id), and for rate cards also AUTOINCREMENT's record, which keeps the
   * ids of removed cards (a card's id names its version: it is never given again).
   */
  identityFloors(): Record<IdentityTable, number> {
    const floors = {} as Record<IdentityTable, number>;
    for (const table of IDENTITY_TABLES)
      floors[table] = this.db.prepare<[], number>(`SELECT COALESCE(MAX(id), 0) FROM ${table}`).pluck().get()!;
    const seq = this.db
      .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'rate_cards'")
      .pluck()
      .get();
    floors.rate_cards = Math.max(floors.rate_cards, seq ?? 0);
    return floors;
  }

  /** The rows to move, `size` at a time, in rowid order (one indexed range read per chunk). */
  *chunks<T extends DeskTable>(table: T, size: number): Generator<Array<DeskRows[T]>> {
    const filter = MOVED[table] ? `AND ${MOVED[table]}` : '';
    const read = this.db.prepare<{ now: string; since: number; after: number; size: number }>(
      `SELECT rowid AS rowid_, ${COLUMNS[table].join(', ')} FROM ${table}
       WHERE rowid > @after ${filter} ORDER BY rowid LIMIT @size`,
    );
    let after = 0;
    for (;;) {
      const got = read.all({ ...this.params, after, size }) as Array<Record<string, unknown>>;
      if (got.length === 0) return;
      after = got[got.length - 1]!.rowid_ as number;
      yield got.map(({ rowid_: _rowid, ...row }) => row as DeskRows[T]);
      if (got.length < size) return;
    }
  }

  /** Ends the snapshot and closes the file. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.db.exec('COMMIT');
    } finally {
      this.db.close();
    }
  }

  private count(table: DeskTable, where?: string): number {
    const sql = `SELECT COUNT(*) FROM ${table}${where ? ` WHERE ${where}` : ''}`;
    return this.db.prepare(sql).pluck().get(this.params) as number;
  }
}
