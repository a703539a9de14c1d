import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface OpenOptions {
  /** Path of a better_sqlite3.node built for another runtime (Electron); Node uses the package's own build. */
  nativeBinding?: string;
  readonly?: boolean;
}

/**
 * Opens the data file with the durability settings the ledger needs: WAL (readers never block the writer),
 * synchronous=FULL (a commit is on disk before we answer), foreign keys, and a 5 s busy timeout so the
 * admin CLI and the server can write the same file.
 */
export function openDb(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, {
    timeout: 5000,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.readonly ? { readonly: true } : {}),
  });
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (path !== ':memory:' && mode !== 'wal') throw new Error(`SQLite refused WAL mode (got ${String(mode)})`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}
