// The pickup-point directories' slice (#21): a town's directory is kept whole per (namespace, town), replaced
// whole by the next refresh, and read back exactly, on every implementation of the port.
import { describe, expect, it } from 'vitest';
import type { CarrierPointDirectory, DirectoryPoint } from '../../../core/carriers/point-directory';
import { PointsQuery } from '../../../core/contract/points';
import { createPointSearch } from '../../../core/points/search';
import { silentLogger } from '../../../core/util/logger';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { NOW_MS, unique, useStore } from './harness';

const point = (code: string, over: Partial<DirectoryPoint> = {}): DirectoryPoint => ({
  code,
  kind: 'pvz',
  name: `ПВЗ ${code}`,
  address: 'Казань, ул. Баумана, 1 «дом»',
  hours: 'Пн-Пт 10:00-20:00',
  lat: 55.79,
  lon: 49.12,
  max_weight_grams: 15_000,
  max_dimensions_cm: [60, 40, 40],
  cod: true,
  card: false,
  ...over,
});

describe.each(STORE_IMPLEMENTATIONS)('point directories ($name)', (impl) => {
  const fx = useStore(impl);

  it('keeps a town’s points and when they were fetched, per namespace and town', async () => {
    const { store } = fx;
    const ns = unique('cdek points http://sim');
    const points = [
      point('KZN1'),
      point('KZN2', {
        kind: 'postamat',
        max_weight_grams: null,
        lat: null,
        lon: null,
        max_volume_cm3: 125_000,
      }),
    ];
    expect(await store.pointDirectories.get(ns, 'казань|татарстан')).toBeUndefined();
    await store.pointDirectories.put(ns, 'казань|татарстан', { fetchedAtMs: NOW_MS, points });
    expect(await store.pointDirectories.get(ns, 'казань|татарстан')).toEqual({ fetchedAtMs: NOW_MS, points });
    expect(await store.pointDirectories.get(ns, 'москва|москва')).toBeUndefined();
    expect(await store.pointDirectories.get(unique('other'), 'казань|татарстан')).toBeUndefined();
  });

  it('a refresh replaces the list whole, an empty list included', async () => {
    const { store } = fx;
    const ns = unique('boxberry points');
    await store.pointDirectories.put(ns, 't', { fetchedAtMs: NOW_MS, points: [point('A'), point('B')] });
    await store.pointDirectories.put(ns, 't', { fetchedAtMs: NOW_MS + 1000, points: [point('C')] });
    expect(await store.pointDirectories.get(ns, 't')).toEqual({
      fetchedAtMs: NOW_MS + 1000,
      points: [point('C')],
    });
    await store.pointDirectories.put(ns, 't', { fetchedAtMs: NOW_MS + 2000, points: [] });
    expect(await store.pointDirectories.get(ns, 't')).toEqual({ fetchedAtMs: NOW_MS + 2000, points: [] });
  });
  it('the search keeps its directories here: a stale one serves while the refresh is stored', async () => {
    const { store } = fx;
    let now = NOW_MS;
    let version = 'OLD';
    let fetches = 0;
    const directory: CarrierPointDirectory = {
      namespace: unique('search points'),
      fetch: async () => {
        fetches += 1;
        return [point(version)];
      },
    };
    const options = {
      store,
      clock: { now: () => new Date(now), monotonicMs: () => now },
      logger: silentLogger,
      refreshHours: () => 24,
      directoryOf: () => Promise.resolve({ kind: 'directory' as const, directory }),
    };
    const query = PointsQuery.parse({
      carrier: 'cdek',
      to: { city: 'Казань' },
      places: [{ weight_grams: 1000, length_cm: 10, width_cm: 10, height_cm: 10 }],
    });
    expect((await createPointSearch(options)(query)).points.map((p) => p.code)).toEqual(['OLD']);
    // Another instance (a restart, a second server) reads the stored copy without asking the carrier.
    const other = createPointSearch(options);
    expect((await other(query)).points.map((p) => p.code)).toEqual(['OLD']);
    expect(fetches).toBe(1);
    now += 25 * 60 * 60 * 1000;
    version = 'NEW';
    expect((await other(query)).points.map((p) => p.code)).toEqual(['OLD']);
    await other.idle();
    expect((await createPointSearch(options)(query)).points.map((p) => p.code)).toEqual(['NEW']);
    expect(fetches).toBe(2);
  });
});
