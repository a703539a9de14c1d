// The data file's audit log (core/store/sqlite/audit.ts, migration 0008) is append-only below the port too:
// a statement that would change or remove an entry is refused by the file itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../../../../core/store';

let dir: string;
let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('the data file’s audit log', () => {
  it('refuses UPDATE and DELETE of an entry', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ratedesk-sqlite-audit-'));
    store = openStore(join(dir, 'ratedesk.db'));
    await store.audit.append({
      at: '2025-03-01T10:00:00.000Z',
      actor_kind: 'cli',
      actor: 'admin',
      action: 'keys:revoke',
      target: 'key-1',
      detail_json: '{}',
    });
    expect(() => store!.db.prepare("UPDATE audit SET actor = 'someone else'").run()).toThrow(/append-only/);
    expect(() => store!.db.prepare('DELETE FROM audit').run()).toThrow(/append-only/);
    expect(await store.audit.search({ limit: 10, offset: 0 })).toMatchObject([{ actor: 'admin' }]);
  });

  it('reads a filter by actor or action through its index', () => {
    dir = mkdtempSync(join(tmpdir(), 'ratedesk-sqlite-audit-'));
    store = openStore(join(dir, 'ratedesk.db'));
    const plan = (sql: string) =>
      (store!.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('; ');
    expect(plan("SELECT * FROM audit WHERE actor = 'a' ORDER BY at DESC, id DESC")).toMatch(
      /INDEX audit_actor/,
    );
    expect(plan("SELECT * FROM audit WHERE action >= 'keys:' AND action < 'keys;' ORDER BY at DESC")).toMatch(
      /INDEX audit_action/,
    );
    expect(plan("SELECT * FROM quotes WHERE author = 'a' ORDER BY id DESC")).toMatch(/INDEX quotes_author/);
    expect(plan("SELECT * FROM quotes WHERE warehouse = 'a' ORDER BY id DESC")).toMatch(
      /INDEX quotes_warehouse/,
    );
  });
});
