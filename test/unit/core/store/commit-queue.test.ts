import { describe, expect, it } from 'vitest';
import { openDb } from '../../../../core/store/open';
import { GroupCommitter } from '../../../../core/store/commit-queue';

describe('GroupCommitter', () => {
  it('ops queued in one turn share one transaction; a failing op rolls back only itself', async () => {
    const db = openDb(':memory:');
    db.exec('CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))');
    const c = new GroupCommitter(db);
    const ins = db.prepare('INSERT INTO t (v) VALUES (?)');
    const results = await Promise.allSettled([
      c.run(() => ins.run(1).changes),
      c.run(() => ins.run(-1).changes),
      c.run(() => ins.run(3).changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY v').pluck().all()).toEqual([1, 3]);
    expect(c.stats).toEqual({ batches: 1, ops: 3 });
    await c.run(() => ins.run(4));
    expect(c.stats.batches).toBe(2);
    db.close();
  });

  it('results settle only after the commit: the row is visible to another connection', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const path = join(mkdtempSync(join(tmpdir(), 'gc-')), 'x.db');
    const db = openDb(path);
    db.exec('CREATE TABLE t (v INTEGER)');
    const other = openDb(path);
    const c = new GroupCommitter(db);
    await c.run(() => db.prepare('INSERT INTO t VALUES (42)').run());
    expect(other.prepare('SELECT v FROM t').pluck().get()).toBe(42);
    db.close();
    other.close();
  });
});
