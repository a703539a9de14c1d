import { SETTINGS, isSettingName } from '../../settings/schema';
import { isSealedValue, plainSecrets, type SecretStore } from '../../settings/secrets';
import type { Db } from './open';

function isSecret(name: string): boolean {
  return isSettingName(name) && SETTINGS[name].secret;
}

/** Secret settings are sealed on write and opened on read with the host's SecretStore (settings/secrets.ts). */
export function settingsRepo(db: Db, secrets: SecretStore = plainSecrets) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const all = db.prepare<[], { name: string; value: string }>(
    'SELECT name, value FROM settings ORDER BY name',
  );
  const set = db.prepare(`
    INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  const del = db.prepare('DELETE FROM settings WHERE name = ?');
  const open = (name: string, value: string): string => (isSecret(name) ? secrets.open(value, name) : value);
  const seal = (name: string, value: string): string =>
    isSecret(name) && value !== '' ? secrets.seal(value, name) : value;
  return {
    get: (name: string): string | undefined => {
      const value = get.get(name)?.value;
      return value === undefined ? undefined : open(name, value);
    },
    all: (): Map<string, string> => new Map(all.all().map((r) => [r.name, open(r.name, r.value)])),
    set: (name: string, value: string, now: string): void => void set.run(name, seal(name, value), now),
    delete: (name: string): void => void del.run(name),
    /**
     * Seals secrets that an earlier version, the admin CLI or a machine without a keychain left as plain text.
     * Returns how many; 0 when this store does not encrypt.
     */
    sealPlainSecrets(now: string): number {
      if (!secrets.encrypting) return 0;
      const plain = all.all().filter((r) => isSecret(r.name) && r.value !== '' && !isSealedValue(r.value));
      if (plain.length === 0) return 0;
      // Without secure_delete the plain text stays in the freed space of the page that held it, in the file
      // and in every later copy of it: zeroed here (only for this rare write, so nothing else pays for it).
      const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
      db.pragma('secure_delete = ON');
      try {
        for (const r of plain) set.run(r.name, secrets.seal(r.value, r.name), now);
      } finally {
        db.pragma(`secure_delete = ${secureDelete}`);
      }
      return plain.length;
    },
  };
}

export type SettingsRepo = ReturnType<typeof settingsRepo>;
