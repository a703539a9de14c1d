import type { Db } from './open';

export function settingsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const all = db.prepare<[], { name: string; value: string }>(
    'SELECT name, value FROM settings ORDER BY name',
  );
  const set = db.prepare(`
    INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  const del = db.prepare('DELETE FROM settings WHERE name = ?');
  return {
    get: (name: string): string | undefined => get.get(name)?.value,
    all: (): Map<string, string> => new Map(all.all().map((r) => [r.name, r.value])),
    set: (name: string, value: string, now: string): void => void set.run(name, value, now),
    delete: (name: string): void => void del.run(name),
  };
}

export type SettingsRepo = ReturnType<typeof settingsRepo>;
