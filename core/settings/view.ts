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

  constructor(private readonly store: Store) {}

  get(name: SettingName): string {
    const v = this.store.db.pragma('data_version', { simple: true }) as number;
    if (this.cache === null || v !== this.version) {
      this.cache = this.store.settings.all();
      this.version = v;
    }
    return this.cache.get(name) ?? SETTINGS[name].default;
  }

  invalidate(): void {
    this.cache = null;
  }
}
