import type { Db } from './open';
import { migrations } from './migrations';

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

/**
 * Brings the file to the newest schema, one migration per transaction, tracked in PRAGMA user_version.
 * A file written by a newer RateDesk is refused rather than guessed at.
 */
export function migrate(db: Db, target: number = latestVersion()): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latestVersion()) {
    throw new Error(
      `Data file schema v${current} is newer than this RateDesk (v${latestVersion()}). Update the app.`,
    );
  }
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

export function latestVersion(): number {
  return migrations[migrations.length - 1]!.version;
}
