import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeWatch } from '../../../../core/store/change-watch';
import { openDb, type Db } from '../../../../core/store/open';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A file with one table, the watched connection, and a second connection standing for the admin CLI. */
function setup(): { db: Db; other: Db; watch: ChangeWatch } {
  const dir = mkdtempSync(join(tmpdir(), 'change-watch-'));
  dirs.push(dir);
  const db = openDb(join(dir, 'x.db'));
  db.exec('CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))');
  const watch = new ChangeWatch(db);
  const other = openDb(join(dir, 'x.db'));
  dbs.push(db, other);
  return { db, other, watch };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ChangeWatch', () => {
  it('reads never change the generation; every kind of write by this connection does, at once', () => {
    const { db, watch } = setup();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const select = db.prepare('SELECT count(*) FROM t').pluck();
    const g0 = watch.generation();
    select.get();
    db.prepare('SELECT v FROM t').all();
    expect(watch.generation()).toBe(g0);

    insert.run(1);
    const g1 = watch.generation();
    expect(g1).not.toBe(g0);
    db.exec('UPDATE t SET v = 2');
    const g2 = watch.generation();
    expect(g2).not.toBe(g1);
    db.prepare('DELETE FROM t RETURNING v').all();
    const g3 = watch.generation();
    expect(g3).not.toBe(g2);
    db.transaction(() => insert.run(5)).immediate();
    expect(watch.generation()).not.toBe(g3);
  });

  it('a rolled-back transaction counts as a change (a cache may have read its rows)', () => {
    const { db, watch } = setup();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const readInside = db.prepare('SELECT count(*) FROM t').pluck();
    let seenInside = -1;
    let generationInside = -1;
    expect(() =>
      db.transaction(() => {
        insert.run(1);
        generationInside = watch.generation();
        seenInside = readInside.get() as number;
        throw new Error('rollback');
      })(),
    ).toThrow('rollback');
    expect(seenInside).toBe(1);
    expect(readInside.get()).toBe(0);
    expect(watch.generation()).not.toBe(generationInside);
  });

  it('a failing write still counts', () => {
    const { db, watch } = setup();
    const g0 = watch.generation();
    expect(() => db.prepare('INSERT INTO t (v) VALUES (?)').run(-1)).toThrow();
    expect(watch.generation()).not.toBe(g0);
  });

  it('a commit by another connection is seen by the next call outside a request batch', () => {
    const { other, watch } = setup();
    const g0 = watch.generation();
    expect(watch.generation()).toBe(g0);
    other.prepare('INSERT INTO t (v) VALUES (1)').run();
    expect(watch.generation()).not.toBe(g0);
  });

  it('within one batch of requests data_version is read once; the next batch reads it again', async () => {
    const { other, watch } = setup();
    watch.beginRequest();
    const g0 = watch.generation();
    other.prepare('INSERT INTO t (v) VALUES (1)').run();
    // Same poll batch: requests in it were all readable before the commit (see the class comment).
    watch.beginRequest();
    expect(watch.generation()).toBe(g0);
    await nextTurn();
    watch.beginRequest();
    expect(watch.generation()).not.toBe(g0);
  });

  it('own writes are seen even inside a batch', () => {
    const { db, watch } = setup();
    watch.beginRequest();
    const g0 = watch.generation();
    db.prepare('INSERT INTO t (v) VALUES (1)').run();
    expect(watch.generation()).not.toBe(g0);
  });
});
