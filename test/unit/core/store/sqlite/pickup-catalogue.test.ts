// The pickup-point catalogue's slice of the store (core/store/sqlite/pickup-catalogue.ts) on a real data file.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedPoint } from '../../../../helpers/fivepost-points';
import { openStore } from '../../../../../core/store';
import { ABANDONED_AFTER_MS } from '../../../../../core/store/sqlite/pickup-catalogue';
import { freshFolder } from '../../../../helpers/store-fixtures';

const T0 = Date.parse('2026-11-24T00:00:00Z');
const NS = '5post https://api-omni.x5.ru';

const point = storedPoint;

describe('PickupCatalogueStore (SQLite)', () => {
  it('keeps a catalogue, unreadable points included, across a reopen of the file', async () => {
    const { store, dir } = freshFolder();
    const unreadable = point('bad', { zip: null, point: null, problem: 'rate: bad' });
    await store.pickupCatalogue.replace(NS, [point('a'), point('b', { zip: '420001' }), unreadable], T0);
    const again = openStore(join(dir, 'ratedesk.db'));
    try {
      expect(await again.pickupCatalogue.meta(NS)).toEqual({ refreshedAtMs: T0, points: 2, unreadable: 1 });
      expect(await again.pickupCatalogue.byZip(NS, '420001')).toEqual([point('b', { zip: '420001' })]);
      expect((await again.pickupCatalogue.byCity(NS, 'казань')).map((p) => p.id).sort()).toEqual([
        'a',
        'b',
        'bad',
      ]);
      expect((await again.pickupCatalogue.byCity(NS, 'казань')).find((p) => p.id === 'bad')).toEqual(
        unreadable,
      );
      expect(await again.pickupCatalogue.meta(`${NS} other`)).toBeUndefined();
    } finally {
      await again.close();
    }
  });

  it('a replace that fails leaves the catalogue that was there, whole', async () => {
    const { store } = freshFolder();
    await store.pickupCatalogue.replace(NS, [point('a'), point('b')], T0);
    await expect(
      store.pickupCatalogue.replace(NS, [point('c'), point('x', { problem: 'also a problem' })], T0 + 1000),
    ).rejects.toThrow(/CHECK/);
    expect(await store.pickupCatalogue.meta(NS)).toEqual({ refreshedAtMs: T0, points: 2, unreadable: 0 });
    expect((await store.pickupCatalogue.byCity(NS, 'казань')).map((p) => p.id).sort()).toEqual(['a', 'b']);
  });

  it('keeps a catalogue refreshed within the week, drops one abandoned longer, when another is stored', async () => {
    const { store } = freshFolder();
    await store.pickupCatalogue.replace('5post http://127.0.0.1:1', [point('old')], T0);
    await store.pickupCatalogue.replace('5post http://127.0.0.1:2', [point('recent')], T0 + 1);
    await store.pickupCatalogue.replace(
      '5post http://127.0.0.1:3',
      [point('new')],
      T0 + ABANDONED_AFTER_MS + 1,
    );
    expect(await store.pickupCatalogue.meta('5post http://127.0.0.1:1')).toBeUndefined();
    expect(await store.pickupCatalogue.meta('5post http://127.0.0.1:2')).toBeDefined();
    expect(store.db.prepare('SELECT point_id FROM fivepost_points ORDER BY point_id').pluck().all()).toEqual([
      'new',
      'recent',
    ]);
  });
});
