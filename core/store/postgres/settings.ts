// Settings on the company database. Secret settings are sealed on write and opened on read with the host's
// SecretStore (on a company server: the server key, settings/secrets.ts). The snapshot the core reads on every
// request is this instance's copy, reloaded when the settings generation moves (change-feed.ts) and after its
// own writes, before they resolve.
import { SETTINGS, isSettingName } from '../../settings/schema';
import { isSealedValue, plainSecrets, type SecretStore } from '../../settings/secrets';
import type { SettingsStore } from '../port';
import type { PgDb } from './pool';

function isSecret(name: string): boolean {
  return isSettingName(name) && SETTINGS[name].secret;
}

const UPSERT = `
  INSERT INTO settings (name, value, updated_at) VALUES ($1, $2, $3)
  ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

export class PgSettings implements SettingsStore {
  private copy: ReadonlyMap<string, string> = new Map();

  constructor(
    private readonly db: PgDb,
    private readonly secrets: SecretStore = plainSecrets,
    /** Called after this instance's own write committed, before it resolves (the change feed's announcement). */
    private readonly wrote: () => void = () => {},
  ) {}

  private open(name: string, value: string): string {
    return isSecret(name) ? this.secrets.open(value, name) : value;
  }

  private seal(name: string, value: string): string {
    return isSecret(name) && value !== '' ? this.secrets.seal(value, name) : value;
  }

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.first<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
    return row === undefined ? undefined : this.open(name, row.value);
  }

  async all(): Promise<Map<string, string>> {
    const rows = await this.db.rows<{ name: string; value: string }>(
      'SELECT name, value FROM settings ORDER BY name',
    );
    return new Map(rows.map((r) => [r.name, this.open(r.name, r.value)]));
  }

  snapshot(): ReadonlyMap<string, string> {
    return this.copy;
  }

  /** Reads the copy again (at open, and when another instance changed settings). */
  async reload(): Promise<void> {
    this.copy = await this.all();
  }

  async write(changes: ReadonlyArray<{ name: string; value: string | null }>, now: string): Promise<void> {
    await this.db.tx(async (c) => {
      for (const { name, value } of changes) {
        if (value === null) await c.query('DELETE FROM settings WHERE name = $1', [name]);
        else await c.query(UPSERT, [name, this.seal(name, value), now]);
      }
    });
    await this.reload();
    this.wrote();
  }

  async sealPlainSecrets(now: string): Promise<number> {
    if (!this.secrets.encrypting) return 0;
    const sealed = await this.db.tx(async (c) => {
      const rows = await c.query<{ name: string; value: string }>(
        'SELECT name, value FROM settings ORDER BY name FOR UPDATE',
      );
      let count = 0;
      for (const r of rows.rows) {
        if (isSecret(r.name) && r.value !== '' && !isSealedValue(r.value)) {
          await c.query(UPSERT, [r.name, this.secrets.seal(r.value, r.name), now]);
          count++;
        }
      }
      return count;
    });
    if (sealed > 0) {
      await this.reload();
      this.wrote();
    }
    return sealed;
  }
}
