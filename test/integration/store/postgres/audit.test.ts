// The company database's audit log (core/store/postgres/audit.ts, migration 0003) is append-only below the
// port too: a statement that would change or remove an entry is refused by the database itself.
import { describe, expect, it } from 'vitest';
import { openPgStore } from '../../../../core/store/postgres';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';

describe('the company database’s audit log', () => {
  it('refuses UPDATE and DELETE of an entry', async () => {
    const url = await createTestDatabase('audit');
    const store = await openPgStore(url);
    try {
      await store.audit.append({
        at: '2025-03-01T10:00:00.000Z',
        actor_kind: 'cli',
        actor: 'admin',
        action: 'keys:revoke',
        target: 'key-1',
        detail_json: '{}',
      });
      await expect(store.db.rows("UPDATE audit SET actor = 'someone else'")).rejects.toThrow(/append-only/);
      await expect(store.db.rows('DELETE FROM audit')).rejects.toThrow(/append-only/);
      expect(await store.audit.search({ limit: 10, offset: 0 })).toMatchObject([{ actor: 'admin' }]);
    } finally {
      await store.close();
      await dropTestDatabase(url);
    }
  });
});
