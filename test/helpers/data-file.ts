// Reading a data folder that another process writes (a `serve` child, a killed `admin` import), from a test,
// through the SQLite store's own open (read-only, its migration-history check included) rather than a driver
// of the test's own (#18 item 3). Three figures have no read on the port, as no part of the core needs them:
// ledger rows, rate-card rows (staged ones included) and SQLite's full integrity_check (the port's
// integrityCheck() is the cheaper quick_check). They are read here, on the implementation's handle: the one
// place of the tests' helpers that knows the SQLite schema.
import { openStore, type SqliteStore } from '../../core/store';
import { dataFilePath } from '../../core/store/data-folder';

/** The data file of `dir`, opened read-only through the store; it must exist and be migrated already. */
export function openReadOnly(dir: string): SqliteStore {
  return openStore(dataFilePath(dir), { readonly: true });
}

/** An account's balance, by name, read now (synchronously: a poll loop reads it between a child's writes). */
export function balanceOf(store: SqliteStore, account: string): number {
  const row = store.repos.accounts.byName(account);
  if (!row) throw new Error(`no account named ${account}`);
  return row.balance;
}

/** How many ledger rows an account has. */
export function ledgerRowCount(store: SqliteStore, account: string): number {
  return store.db
    .prepare<[string], number>(
      'SELECT COUNT(*) FROM ledger WHERE account_id = (SELECT id FROM accounts WHERE name = ?)',
    )
    .pluck()
    .get(account)!;
}

/**
 * Rows in rate_card_rows: all of them, or only those of staged cards (an import still writing, or one killed
 * halfway: hidden from every reader until published).
 */
export function rateCardRowCount(store: SqliteStore, which: 'all' | 'staged'): number {
  const sql =
    which === 'all'
      ? 'SELECT COUNT(*) FROM rate_card_rows'
      : `SELECT COUNT(*) FROM rate_card_rows r JOIN rate_cards c ON c.id = r.card_id
         WHERE substr(c.name, 1, 1) = char(1)`;
  return store.db.prepare<[], number>(sql).pluck().get()!;
}

/** SQLite's full PRAGMA integrity_check: 'ok', or the problems it found. */
export function fullIntegrityCheck(store: SqliteStore): string {
  return String(store.db.pragma('integrity_check', { simple: true }));
}
