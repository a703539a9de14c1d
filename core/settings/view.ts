import type { SettingsStore } from '../store/port';
import { SETTINGS, type SettingName } from './schema';

/**
 * Settings as the running service sees them: the store's snapshot (kept until its change feed says settings
 * may have changed: the admin CLI wrote from another process, or this process wrote one), with defaults.
 */
export class SettingsView {
  constructor(private readonly settings: Pick<SettingsStore, 'snapshot'>) {}

  get(name: SettingName): string {
    return this.settings.snapshot().get(name) ?? SETTINGS[name].default;
  }
}
