// Where RateDesk keeps its data file, and what a fresh data folder contains.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, resolve, win32 } from 'node:path';
import { DEFAULT_BALANCE } from '../contract/low-balance';
import { systemClock, type WallClock } from '../util/clock';
import { openStore, type SqliteStore, type StoreOptions } from './sqlite';

export const DATA_FILE_NAME = 'ratedesk.db';
export const DEFAULT_ACCOUNT = { name: 'default', balance: DEFAULT_BALANCE } as const;

export interface PlatformEnv {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  home: string;
}

/**
 * The OS convention for per-user application data, identical to Electron's app.getPath('userData') for
 * productName RateDesk; RATEDESK_DATA_DIR overrides it (tests, servers, portable installs).
 */
export function defaultDataDir(
  { env, platform, home }: PlatformEnv = { env: process.env, platform: process.platform, home: homedir() },
): string {
  const override = env.RATEDESK_DATA_DIR;
  if (override) return resolve(override);
  if (platform === 'win32')
    return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'RateDesk');
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'RateDesk');
  // Electron's userData on Linux is $XDG_CONFIG_HOME/<productName> (else ~/.config/RateDesk): the same folder
  // here means `serve`, `admin` and the desktop app share one data file. A relative XDG_CONFIG_HOME is
  // invalid per the XDG spec and ignored.
  const xdg = env.XDG_CONFIG_HOME;
  return posix.join(xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config'), 'RateDesk');
}

export function dataFilePath(dir: string): string {
  return join(dir, DATA_FILE_NAME);
}

/**
 * Gives a store with no account its `default` account (free tier, DEFAULT_BALANCE requests, the default
 * low-balance threshold). Checked inside one
 * BEGIN IMMEDIATE so two processes opening the same new folder create it once. Returns true when created.
 */
export function seedDefaultAccount(store: SqliteStore, clock: WallClock = systemClock): boolean {
  return store.seedIfEmptySync(DEFAULT_ACCOUNT.name, DEFAULT_ACCOUNT.balance, clock.now().toISOString());
}

export interface DataFolderOptions {
  clock?: WallClock;
  open?: StoreOptions;
}

/** Opens (creating and migrating) the data file of `dir` and seeds a fresh folder. */
export function ensureDataFolder(
  dir: string,
  options: DataFolderOptions = {},
): { store: SqliteStore; seeded: boolean } {
  // 0700: the file holds no secrets, but digests, balances and quote history are nobody else's business.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = dataFilePath(dir);
  // Created empty with 0600 before SQLite opens it: SQLite gives the -wal and -shm files the mode of the
  // database file, so all three stay private even in a folder someone else made world-readable.
  if (!options.open?.readonly) closeSync(openSync(file, 'a', 0o600));
  const store = openStore(file, options.open);
  try {
    return { store, seeded: seedDefaultAccount(store, options.clock) };
  } catch (error) {
    void store.close();
    throw error;
  }
}

export function openDataFolder(dir: string, options: DataFolderOptions = {}): SqliteStore {
  return ensureDataFolder(dir, options).store;
}
