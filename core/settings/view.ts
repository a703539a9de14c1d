import type { Store } from '../store';
import { SETTINGS, type SettingName } from './schema';

/**
 * Settings as the running service sees them: read once, kept until the store's ChangeWatch says the file may
 * have changed (the admin CLI wrote from another process, or this process wrote anything).
 */
export class SettingsView {
  private cache: Map<string, string> | null = null;
  private generation = -1;

  constructor(private readonly store: Store) {}

  get(name: SettingName): string {
    const generation = this.store.changes.generation();
    if (generation !== this.generation) {
      this.cache = null;
      this.generation = generation;
    }
    this.cache ??= this.store.settings.all();
    return this.cache.get(name) ?? SETTINGS[name].default;
  }

  /** Redundant with the ChangeWatch; kept for callers that write settings and read them back in one step. */
  invalidate(): void {
    this.cache = null;
  }
}
