// The location cache's slice of the store (core/store/sqlite/location-cache.ts) on a real data file.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../../../core/store';
import { freshFolder } from '../../../../helpers/store-fixtures';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const entry = (key: string, value: string | null, ttlMs: number) => ({
  namespace: 'cdek http://sim',
  want: 'cdek_city_code',
  key,
  value,
  nowMs: T0,
  ttlMs,
});

describe('LocationCacheStore (SQLite)', () => {
  it('keeps an answer, "not found" included, across a reopen of the file until it expires', async () => {
    const { store, dir } = freshFolder();
    await store.locationCache.put(entry('кольцово||', '4242', 60_000));
    await store.locationCache.put(entry('нигдевск||', null, 1000));
    const again = openStore(join(dir, 'ratedesk.db'));
    try {
      expect(await again.locationCache.get('cdek http://sim', 'cdek_city_code', 'кольцово||', T0)).toEqual({
        value: '4242',
      });
      expect(
        await again.locationCache.get('cdek http://sim', 'cdek_city_code', 'нигдевск||', T0 + 999),
      ).toEqual({
        value: null,
      });
      expect(
        await again.locationCache.get('cdek http://sim', 'cdek_city_code', 'нигдевск||', T0 + 1000),
      ).toBeUndefined();
      expect(
        await again.locationCache.get('cdek http://sim', 'terminal_id', 'кольцово||', T0),
      ).toBeUndefined();
      expect(
        await again.locationCache.get('cdek https://api.cdek.ru/v2', 'cdek_city_code', 'кольцово||', T0),
      ).toBe(undefined);
    } finally {
      await again.close();
    }
  });

  it('a put replaces the entry: value and expiry', async () => {
    const { store } = freshFolder();
    await store.locationCache.put(entry('k', null, 1000));
    await store.locationCache.put(entry('k', '44', 5000));
    expect(await store.locationCache.get('cdek http://sim', 'cdek_city_code', 'k', T0 + 4999)).toEqual({
      value: '44',
    });
    expect(store.db.prepare('SELECT COUNT(*) FROM location_cache').pluck().get()).toBe(1);
  });

  it('sweeps only the rows expired at the given time', async () => {
    const { store } = freshFolder();
    await store.locationCache.put(entry('short', '1', 1000));
    await store.locationCache.put(entry('long', '2', 5000));
    const keys = () =>
      store.db.prepare('SELECT place_key FROM location_cache ORDER BY place_key').pluck().all();
    await store.locationCache.sweepExpired(T0 + 999);
    expect(keys()).toEqual(['long', 'short']);
    await store.locationCache.sweepExpired(T0 + 1000);
    expect(keys()).toEqual(['long']);
  });

  it('a read-only file keeps its stale rows: the sweep never throws', async () => {
    const { store, dir } = freshFolder();
    await store.locationCache.put(entry('k', '1', 1000));
    const readonly = openStore(join(dir, 'ratedesk.db'), { readonly: true });
    try {
      await expect(readonly.locationCache.sweepExpired(T0 + 2000)).resolves.toBeUndefined();
      expect(store.db.prepare('SELECT COUNT(*) FROM location_cache').pluck().get()).toBe(1);
    } finally {
      await readonly.close();
    }
  });
});
