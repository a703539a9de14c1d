// The company database's migrations (core/store/postgres/migrate.ts): instances that start together on an
// empty database migrate it once, under the migration lock, and every one of them opens it.
import { describe, expect, it } from 'vitest';
import { openPgStore } from '../../../../core/store/postgres';
import { migrations } from '../../../../core/store/postgres/migrations';
import { sqlChecksum } from '../../../../core/store/migration-checksum';
import { DataFileRefusedError } from '../../../../core/store';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';

describe('company database migrations', () => {
  it('are applied once when three instances start together on an empty database', async () => {
    const url = await createTestDatabase('migrate', { empty: true });
    try {
      const stores = await Promise.all([openPgStore(url), openPgStore(url), openPgStore(url)]);
      try {
        const applied = await stores[0].db.rows<{ version: number; name: string; checksum: string }>(
          'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
        );
        expect(applied).toEqual(
          migrations.map((m) => ({ version: m.version, name: m.name, checksum: sqlChecksum(m.sql) })),
        );
        // Each instance works on the one schema.
        const acc = await stores[1].accounts.create('together', 3, new Date().toISOString());
        expect(await stores[2].accounts.balance(acc.id)).toBe(3);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    } finally {
      await dropTestDatabase(url);
    }
  });

  it('refuses a database a newer RateDesk migrated, and changes nothing in it', async () => {
    const url = await createTestDatabase('migrate');
    try {
      const store = await openPgStore(url);
      await store.db.rows(
        `INSERT INTO schema_migrations (version, name, checksum) VALUES (999, 'from the future', $1)`,
        ['f'.repeat(64)],
      );
      await store.close();
      const refused = await openPgStore(url).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataFileRefusedError);
      expect((refused as DataFileRefusedError).reason).toBe('newer');
      expect((refused as Error).message).toMatch(
        /migration 0999 "from the future", newer than this RateDesk/,
      );
      // The URL in the message carries no password.
      expect((refused as Error).message).not.toMatch(/:[^@/]*@/);
    } finally {
      await dropTestDatabase(url);
    }
  });
});
