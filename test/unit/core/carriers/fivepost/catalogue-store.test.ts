import { afterEach, describe, expect, it } from 'vitest';
import {
  memoryCatalogueStore,
  type FivePostCatalogueStore,
} from '../../../../../core/carriers/fivepost/catalogue-store';
import { storedPoint } from '../../../../helpers/fivepost-points';
import { openStore, type Store } from '../../../../../core/store';
import { ABANDONED_AFTER_MS } from '../../../../../core/store/sqlite/pickup-catalogue';

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

const point = storedPoint;

const T0 = Date.parse('2026-11-24T00:00:00Z');

describe.each([
  [
    'SQLite',
    (): FivePostCatalogueStore => {
      const s = openStore(':memory:');
      stores.push(s);
      return s.pickupCatalogue;
    },
  ],
  ['memory', memoryCatalogueStore],
])('%s catalogue store', (_name, make) => {
  it('replaces a namespace whole and finds points by zip and city', async () => {
    const store = make();
    const ns = `5post test ${Math.random()}`;
    expect(await store.meta(ns)).toBeUndefined();
    await store.replace(
      ns,
      [point('a'), point('b', { zip: '420001' }), point('bad', { point: null, problem: 'rate: bad' })],
      T0,
    );
    expect(await store.meta(ns)).toEqual({ refreshedAtMs: T0, points: 2, unreadable: 1 });
    expect((await store.byZip(ns, '420000')).map((p) => p.id).sort()).toEqual(['a', 'bad']);
    expect(await store.byCity(ns, 'казань')).toHaveLength(3);
    expect((await store.byCity(ns, 'казань')).find((p) => p.id === 'a')).toEqual(point('a'));
    await store.replace(ns, [point('c')], T0 + 1000);
    expect((await store.byCity(ns, 'казань')).map((p) => p.id)).toEqual(['c']);
    expect(await store.byCity(`${ns} other host`, 'казань')).toEqual([]);
  });
});

describe('SQLite catalogue store', () => {
  it('drops catalogues abandoned for a week when another is stored', async () => {
    const s = openStore(':memory:');
    stores.push(s);
    const store = s.pickupCatalogue;
    await store.replace('5post http://127.0.0.1:1', [point('old')], T0);
    await store.replace('5post http://127.0.0.1:2', [point('new')], T0 + ABANDONED_AFTER_MS + 1);
    expect(await store.meta('5post http://127.0.0.1:1')).toBeUndefined();
    expect(s.db.prepare('SELECT point_id FROM fivepost_points').all()).toEqual([{ point_id: 'new' }]);
  });

  it('refuses a row that is both a point and a problem (the table says one or the other)', async () => {
    const s = openStore(':memory:');
    stores.push(s);
    const store = s.pickupCatalogue;
    await expect(store.replace('ns', [point('x', { problem: 'also a problem' })], T0)).rejects.toThrow(
      /CHECK/,
    );
    expect(await store.meta('ns')).toBeUndefined(); // the transaction left nothing behind
  });
});
