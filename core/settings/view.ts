import type { Store } from '../store';
import { SETTINGS, type SettingName } from './schema';

/**
 * Settings as the running service sees them. The admin CLI writes the same file from another process, so the
 * cache is dropped whenever SQLite's data_version says another connection committed (one cheap pragma per
 * read instead of a query per setting); writes made through this process call invalidate().
 */
export class SettingsView {
  private cache: Map<string, string> | null = null;
  private version = -1;
  private checkedThisTurn = false;
  /** Prepared once: db.pragma() would compile the statement on every call (~25 µs on the hot path). */
  private readonly dataVersion: () => number;

  constructor(private readonly store: Store) {
    const stmt = store.db.prepare('PRAGMA data_version').pluck();
    this.dataVersion = () => stmt.get() as number;
  }

  get(name: SettingName): string {
    // One data_version check per event-loop turn: a request reads several settings, and a commit by another
    // process is seen by every request that starts in a later turn.
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true;
      setImmediate(() => (this.checkedThisTurn = false));
      const v = this.dataVersion();
      if (v !== this.version) {
        this.cache = null;
        this.version = v;
      }
    }
    this.cache ??= this.store.settings.all();
    return this.cache.get(name) ?? SETTINGS[name].default;
  }

  invalidate(): void {
    this.cache = null;
  }
}
