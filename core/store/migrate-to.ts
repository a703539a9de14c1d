// `admin migrate-to postgres://…`: a desk's data folder moved into a new company database (#19 item 5). The
// desk's file is opened read-only and read in one snapshot (sqlite/export-desk.ts); the company database is
// migrated and filled in one transaction (postgres/import-desk.ts), so it ends with all of the desk or none of
// it. Both sides are compared by the same figures: rows per table, and every account's balance and ledger sum.
//
// What moves: accounts (ids, balances, tiers, thresholds, last package), the whole ledger, limit overrides,
// keys (digests only: a desk never had the secrets; revoked keys stay revoked), settings, idempotency records
// within retention (a retry sent to the company server replays the desk's answer), quote history,
// notifications, carrier health, rate cards with their rows, the location cache and the 5Post catalogue (a new
// server quotes at once instead of asking carriers' directories again; 5Post allows only a few catalogue
// downloads a day), and the resale rules (#21). What stays: expired idempotency records and cache entries,
// hidden rate cards (an import never published, a retired version), settings this RateDesk does not know, and
// secrets (below).
import { SETTINGS, isSettingName } from '../settings/schema';
import { plainSecrets, type SecretStore } from '../settings/secrets';
import { systemClock, type WallClock } from '../util/clock';
import { servingPid } from '../util/folder-lock';
import { dataFilePath } from './data-folder';
import { CHUNK_ROWS, figureDifferences, type DeskFigures, type DeskRows, type DeskTable } from './desk-copy';
import { displayUrl, openPgStore, type PgOpenOptions, type PgStore } from './postgres';
import { DataFileRefusedError } from './refused';
import { DeskExport, type DeskLeftBehind } from './sqlite/export-desk';

export type { DeskLeftBehind } from './sqlite/export-desk';

export interface MigrateToOptions {
  /** The desk's data folder. */
  dataDir: string;
  /** The company database (postgres://…); it must be empty. */
  url: string;
  /** Completed idempotency records older than this are not moved (the service's retention). */
  idempotencyRetentionMs: number;
  /**
   * How secret settings are sealed on the company database: with the server key's SecretStore they are
   * re-sealed with it; without one (or one that does not encrypt) they are not moved, since a shared database
   * keeps carrier secrets sealed only (#19 item 3).
   */
  secrets?: SecretStore;
  clock?: WallClock;
  onProgress?: (table: DeskTable, rows: number) => void | Promise<void>;
  /** Connection options of the company database (pool size, connect timeout). */
  database?: PgOpenOptions;
}

/** A setting left on the desk, and why. */
export interface SkippedSetting {
  name: string;
  /**
   * `unknown`: not a setting of this RateDesk (e.g. the desk's own server-key check value); `sealed`: a secret
   * sealed where this process cannot open it (the desktop app's keychain); `no_server_key`: a plain secret,
   * which a company database keeps only sealed with the server key.
   */
  reason: 'unknown' | 'sealed' | 'no_server_key';
}

export interface MigrateToReport {
  /** The desk's data file. */
  source: string;
  /** The company database, without its password. */
  target: string;
  /** What the desk holds of what moves (its snapshot), settings as moved. */
  desk: DeskFigures;
  /** What the company database holds, read after the commit. */
  company: DeskFigures;
  leftBehind: DeskLeftBehind;
  settings: { moved: number; sealed: number; skipped: SkippedSetting[] };
  elapsedMs: number;
}

/** The desk is being served: a charge after the snapshot would be lost to the company database. */
export class DeskInUseError extends Error {
  override readonly name = 'DeskInUseError';
}

/** The desk's own data is not sound: it is not copied anywhere. */
export class DeskUnsoundError extends Error {
  override readonly name = 'DeskUnsoundError';
}

/** Copies the desk of `options.dataDir` into the empty database `options.url`; the figures of both. */
export async function migrateDeskTo(options: MigrateToOptions): Promise<MigrateToReport> {
  const started = performance.now();
  const clock = options.clock ?? systemClock;
  const now = clock.now();
  const pid = servingPid(options.dataDir);
  if (pid !== undefined)
    throw new DeskInUseError(
      `a RateDesk (pid ${pid}) is serving ${options.dataDir}: stop it (and the desktop app on that folder) ` +
        'first, so that nothing is charged on the desk after its data is copied',
    );

  const source = DeskExport.open(dataFilePath(options.dataDir), {
    now: now.toISOString(),
    idempotencySinceMs: now.getTime() - options.idempotencyRetentionMs,
  });
  try {
    const integrity = source.integrityCheck();
    if (!integrity.ok)
      throw new DeskUnsoundError(
        `the desk data file ${source.path} is damaged (${integrity.problem}); nothing was copied. ` +
          'Restore the data folder from a backup first',
      );
    const desk = source.figures();
    const unbalanced = desk.accounts.filter((a) => a.balance !== a.ledger_sum);
    if (unbalanced.length > 0)
      throw new DeskUnsoundError(
        `the desk's ledger does not add up (${unbalanced
          .slice(0, 3)
          .map((a) => `account ${a.name}: balance ${a.balance}, ledger sum ${a.ledger_sum}`)
          .join('; ')}); nothing was copied. Restore the data folder from a backup first`,
      );

    const settings = chooseSettings(
      [...source.chunks('settings', CHUNK_ROWS.settings)].flat(),
      options.secrets ?? plainSecrets,
    );
    const expected: DeskFigures = { ...desk, rows: { ...desk.rows, settings: settings.moved.length } };

    const target = await openTarget(options);
    try {
      await target.importDesk({
        chunks: <T extends DeskTable>(table: T) =>
          table === 'settings'
            ? [settings.moved as unknown as Array<DeskRows[T]>]
            : source.chunks(table, CHUNK_ROWS[table]),
        identityFloors: source.identityFloors(),
        expected,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
      const company = await target.deskFigures();
      const after = figureDifferences(expected, company);
      if (after.length > 0)
        throw new Error(
          `the copy committed, but the company database read back differs (${after.slice(0, 3).join('; ')}): ` +
            'did a serve or admin command write to it meanwhile?',
        );
      return {
        source: source.path,
        target: target.location,
        desk: expected,
        company,
        leftBehind: source.leftBehind(),
        settings: {
          moved: settings.moved.length,
          sealed: settings.sealed,
          skipped: settings.skipped,
        },
        elapsedMs: performance.now() - started,
      };
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** The company database, migrated (not seeded: a `default` account would make it non-empty). */
async function openTarget(options: MigrateToOptions): Promise<PgStore> {
  try {
    return await openPgStore(options.url, { max: 2, ...options.database });
  } catch (error) {
    if (error instanceof DataFileRefusedError) throw error;
    throw new Error(
      `cannot open the company database ${displayUrl(options.url)} (${(error as Error).message}); nothing was copied`,
      { cause: error },
    );
  }
}

/**
 * The settings rows to write: known settings as stored, secrets opened and sealed again with `secrets` (a
 * value a process without the desk's keychain cannot open stays behind, as does any plain secret when
 * `secrets` does not encrypt).
 */
function chooseSettings(
  rows: ReadonlyArray<DeskRows['settings']>,
  secrets: SecretStore,
): { moved: Array<DeskRows['settings']>; sealed: number; skipped: SkippedSetting[] } {
  // seal/open take the setting's name: the server key binds it into the sealed value.
  const named = secrets;
  const moved: Array<DeskRows['settings']> = [];
  const skipped: SkippedSetting[] = [];
  let sealed = 0;
  for (const row of rows) {
    const { name, value } = row;
    if (!isSettingName(name)) {
      skipped.push({ name, reason: 'unknown' });
      continue;
    }
    if (!SETTINGS[name].secret || value === '') {
      moved.push(row);
      continue;
    }
    // The store's own open decides what is sealed: plain text comes back as it is, a value it cannot open as ''.
    const plain = named.open(value, name);
    if (plain === '') skipped.push({ name, reason: 'sealed' });
    else if (!named.encrypting) skipped.push({ name, reason: 'no_server_key' });
    else {
      moved.push({ ...row, value: named.seal(plain, name) });
      sealed++;
    }
  }
  return { moved, sealed, skipped };
}
