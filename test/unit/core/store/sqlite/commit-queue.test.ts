import { describe, expect, it } from 'vitest';
import { openDb } from '../../../../../core/store/sqlite/open';
import { GroupCommitter } from '../../../../../core/store/sqlite/commit-queue';
import { isBusyError, StoreBusyError, useServingBusyTimeout } from '../../../../../core/store/sqlite/busy';

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

describe('GroupCommitter and a write lock held by another connection (#16 item 4)', () => {
  async function twoConnections() {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const path = join(mkdtempSync(join(tmpdir(), 'gc-busy-')), 'x.db');
    const db = openDb(path);
    db.exec('CREATE TABLE t (v INTEGER)');
    useServingBusyTimeout(db);
    const other = openDb(path);
    const rows = (): number[] => other.prepare('SELECT v FROM t ORDER BY v').pluck().all() as number[];
    return { db, other, rows };
  }

  it('waits off the event loop and commits once the lock is free; ops queued meanwhile join the batch', async () => {
    const { db, other, rows } = await twoConnections();
    const c = new GroupCommitter(db);
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const first = c.run(() => db.prepare('INSERT INTO t VALUES (1)').run());
    const loopStart = performance.now();
    await new Promise((r) => setTimeout(r, 100));
    const second = c.run(() => db.prepare('INSERT INTO t VALUES (2)').run());
    await new Promise((r) => setTimeout(r, 100));
    // The event loop kept turning (a 5 ms timer fired most of the time) while the batch waited.
    expect(ticks).toBeGreaterThan((performance.now() - loopStart) / 5 / 3);
    expect(rows()).toEqual([]);
    other.exec('ROLLBACK');
    await Promise.all([first, second]);
    clearInterval(ticker);
    expect(rows()).toEqual([1, 2]);
    expect(c.stats).toEqual({ batches: 1, ops: 2 });
    db.close();
    other.close();
  });

  it('an op still not committed after the bound is rejected with StoreBusyError and left undone', async () => {
    const { db, other, rows } = await twoConnections();
    const c = new GroupCommitter(db, { busyBoundMs: 150 });
    other.exec('BEGIN IMMEDIATE');
    let runs = 0;
    const start = performance.now();
    const op = c.run(() => {
      runs++;
      return db.prepare('INSERT INTO t VALUES (7)').run();
    });
    await expect(op).rejects.toBeInstanceOf(StoreBusyError);
    expect(performance.now() - start).toBeLessThan(1_000);
    // SQLite refused every BEGIN: the op's own code never ran.
    expect(runs).toBe(0);
    other.exec('ROLLBACK');
    expect(rows()).toEqual([]);
    await c.run(() => db.prepare('INSERT INTO t VALUES (8)').run());
    expect(rows()).toEqual([8]);
    db.close();
    other.close();
  });

  it('flush() on shutdown does not wait for a busy file: the queued ops are rejected as busy', async () => {
    const { db, other, rows } = await twoConnections();
    const c = new GroupCommitter(db);
    other.exec('BEGIN IMMEDIATE');
    const op = c.run(() => db.prepare('INSERT INTO t VALUES (3)').run());
    c.flush();
    await expect(op).rejects.toSatisfy(isBusyError);
    other.exec('ROLLBACK');
    expect(rows()).toEqual([]);
    db.close();
    other.close();
  });
});
