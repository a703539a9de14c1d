// A rate-card import in chunks stays atomic to readers (#16 item 4): a second connection on the same file sees
// the old card, whole, between any two chunks, and the new one only once it is complete; a failure halfway
// leaves the old card; rows left hidden by a crash are deleted by the next import.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../../../../core/store';
import type { RateCardRow } from '../../../../../core/ratecards/parse';
import { STAGED_LEASE_MS } from '../../../../../core/store/sqlite/rate-cards';
import { freshFolder } from '../../../../helpers/store-fixtures';

function rows(n: number, price = 50_000): RateCardRow[] {
  return Array.from({ length: n }, (_, i) => ({
    line: i + 2,
    from: { kind: 'prefix', prefix: String(100 + (i % 900)) },
    to: { kind: 'any' },
    maxWeightGrams: 30_000,
    priceKopecks: price,
    daysMin: 1,
    daysMax: 3,
    deliveryType: 'door',
    serviceCode: null,
    serviceName: null,
    declaredValueBp: 0,
  }));
}

const CARD = { code: 'big', name: 'Big', volumetric_divisor: 5000, created_at: '2025-03-01T10:00:00.000Z' };

function setup(): { store: SqliteStore; reader: SqliteStore; allRows: () => number } {
  const { store, dir } = freshFolder();
  const reader = openStore(join(dir, 'ratedesk.db'));
  const count = reader.db.prepare('SELECT COUNT(*) FROM rate_card_rows').pluck();
  return { store, reader, allRows: () => count.get() as number };
}

describe('rate cards imported in chunks', () => {
  it('another connection sees the old card, whole, between chunks, and the new one once published', async () => {
    const { store, reader, allRows } = setup();
    const old = await store.rateCards.replace(CARD, rows(3, 10_000));
    const seen: Array<{ versions: unknown; rows: number; all: number }> = [];
    // The pause is called between two transactions, synchronously: the reader's connection is read through
    // its synchronous repository there (the same statements its port methods run).
    const published = await store.rateCards.replace({ ...CARD, name: 'Big v2' }, rows(5_000), {
      chunkRows: 1_000,
      pause: () =>
        seen.push({
          versions: reader.repos.rateCards.versions(),
          rows: reader.repos.rateCards.list()[0]!.rows,
          all: allRows(),
        }),
    });
    // Five chunks, four pauses; each time the old card alone, while the staged rows grow unseen. The last
    // pause is between the deletions of the retired card's rows, the new card already in place.
    expect(seen.map((s) => s.all)).toEqual([1_003, 2_003, 3_003, 4_003, 5_000]);
    for (const s of seen.slice(0, 4)) {
      expect(s.versions).toEqual([{ id: old.id, code: 'big' }]);
      expect(s.rows).toBe(3);
    }
    expect(seen[4]).toEqual({ versions: [{ id: published.id, code: 'big' }], rows: 5_000, all: 5_000 });
    expect(published.replaced).toBe(true);
    expect(await reader.rateCards.versions()).toEqual([{ id: published.id, code: 'big' }]);
    expect((await reader.rateCards.list()).map((c) => [c.name, c.rows])).toEqual([['Big v2', 5_000]]);
    expect((await reader.rateCards.load(published.id))!.rows).toHaveLength(5_000);
    expect(await reader.rateCards.load(old.id)).toBeUndefined();
    // The old version's rows were deleted (in chunks) after the switch.
    expect(allRows()).toBe(5_000);
    await reader.close();
  });

  it('a failure halfway leaves the old card as it was and deletes the staged rows', async () => {
    const { store, reader, allRows } = setup();
    const old = await store.rateCards.replace(CARD, rows(3, 10_000));
    let pauses = 0;
    await expect(
      store.rateCards.replace(CARD, rows(5_000), {
        chunkRows: 1_000,
        pause: () => {
          if (++pauses === 2) throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(await reader.rateCards.versions()).toEqual([{ id: old.id, code: 'big' }]);
    expect((await reader.rateCards.load(old.id))!.rows).toHaveLength(3);
    expect(allRows()).toBe(3);
    await reader.close();
  });

  it('rows a dead importer left are deleted by the next import; a live importer within its lease is left alone', async () => {
    const { store, reader, allRows } = setup();
    await store.rateCards.replace(CARD, rows(3, 10_000));
    // What a crash leaves: a staged card whose process is gone, another of a live process (this test's
    // parent) still writing, and one of a live process silent for longer than the lease.
    let staged = 0;
    const stage = (pid: number, heartbeat: string): number => {
      const id = Number(
        store.db
          .prepare(
            'INSERT INTO rate_cards (code, name, volumetric_divisor, created_at) VALUES (?, ?, 5000, ?)',
          )
          .run(`--staged-test-${++staged}`, `\u0001staged by pid ${pid}`, heartbeat).lastInsertRowid,
      );
      const insert = store.db.prepare(
        `INSERT INTO rate_card_rows (card_id, line, from_kind, from_value, to_kind, to_value, max_weight_grams,
          price_kopecks, days_min, days_max, delivery_type, declared_value_bp)
         VALUES (?, ?, 'any', '', 'any', '', 1000, 1, 1, 1, 'door', 0)`,
      );
      for (let line = 2; line < 2_502; line++) insert.run(id, line);
      return id;
    };
    const now = new Date().toISOString();
    const dead = stage(2 ** 22 + 12_345, now);
    const live = stage(process.ppid, now);
    const silent = stage(process.ppid, new Date(Date.now() - STAGED_LEASE_MS - 1_000).toISOString());
    expect(store.repos.rateCards.abandoned().sort()).toEqual([dead, silent].sort());
    expect((await reader.rateCards.versions()).map((v) => v.code)).toEqual(['big']);

    await store.rateCards.replace({ ...CARD, code: 'other' }, rows(10));
    const left = store.db
      .prepare('SELECT id FROM rate_cards WHERE substr(name, 1, 1) = char(1)')
      .pluck()
      .all();
    expect(left).toEqual([live]);
    expect(allRows()).toBe(3 + 10 + 2_500);
    await reader.close();
  });

  it('a removal hides the card at once, then deletes its rows', async () => {
    const { store, reader, allRows } = setup();
    await store.rateCards.replace(CARD, rows(3_000));
    const visible: string[][] = [];
    const removed = await store.rateCards.remove('big', {
      chunkRows: 1_000,
      pause: () => visible.push(reader.repos.rateCards.versions().map((v) => v.code)),
    });
    expect(removed?.code).toBe('big');
    expect(visible).toEqual([[], [], []]);
    expect(allRows()).toBe(0);
    expect(await store.rateCards.remove('big')).toBeUndefined();
    await reader.close();
  });
});
