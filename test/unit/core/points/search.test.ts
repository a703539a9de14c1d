// The point search over a directory that counts its fetches, a memory store and a clock the test moves: a
// fresh directory answers without the carrier; a stale one answers at once while one refresh runs; a failed
// refresh keeps the old list; a town never fetched waits, and a failure then is an error, never an empty list.
import { describe, expect, it } from 'vitest';
import { PointsQuery } from '../../../../core/contract/points';
import {
  memoryPointDirectoryStore,
  PointDirectoryError,
  type CarrierPointDirectory,
  type DirectoryPoint,
  type DirectoryTown,
} from '../../../../core/carriers/point-directory';
import {
  createPointSearch,
  PointSearchError,
  RETRY_AFTER_MS,
  type DirectoryLookup,
} from '../../../../core/points/search';
import { silentLogger } from '../../../../core/util/logger';

const HOUR = 60 * 60 * 1000;
// Kazan's centre in the city table.
const KAZAN = { lat: 55.7944, lon: 49.1115 };

const point = (
  code: string,
  kg: number,
  dLat: number,
  over: Partial<DirectoryPoint> = {},
): DirectoryPoint => ({
  code,
  kind: 'pvz',
  name: code,
  address: `Казань, ${code}`,
  hours: '10:00-20:00',
  lat: KAZAN.lat + dLat,
  lon: KAZAN.lon,
  max_weight_grams: kg * 1000,
  max_dimensions_cm: null,
  cod: true,
  card: true,
  ...over,
});

function harness(points: DirectoryPoint[] = [point('SMALL', 15, 0.002), point('BIG', 30, 0.01)]) {
  let now = Date.parse('2026-11-27T09:00:00Z');
  let answer: () => Promise<DirectoryPoint[]> = () => Promise.resolve(points);
  const towns: DirectoryTown[] = [];
  const directory: CarrierPointDirectory = {
    namespace: 'test points',
    fetch: (town) => {
      towns.push(town);
      return answer();
    },
  };
  let lookup: DirectoryLookup = { kind: 'directory', directory };
  const store = memoryPointDirectoryStore();
  const search = createPointSearch({
    store: { pointDirectories: store },
    clock: { now: () => new Date(now), monotonicMs: () => now },
    logger: silentLogger,
    refreshHours: () => 24,
    directoryOf: () => Promise.resolve(lookup),
  });
  return {
    search,
    store,
    towns,
    advance: (ms: number) => (now += ms),
    answer: (fn: () => Promise<DirectoryPoint[]>) => (answer = fn),
    lookup: (l: DirectoryLookup) => (lookup = l),
  };
}

const query = (kg: number, over: Record<string, unknown> = {}) =>
  PointsQuery.parse({
    carrier: 'test',
    to: { city: 'Казань' },
    places: [{ weight_grams: kg * 1000, length_cm: 30, width_cm: 20, height_cm: 10 }],
    ...over,
  });

describe('point search', () => {
  it('filters by the parcel, counts what it left out, nearest first with distances', async () => {
    const h = harness([point('FAR', 30, 0.05), point('SMALL', 15, 0.002), point('BIG', 30, 0.01)]);
    const light = await h.search(query(1));
    expect(light.points.map((p) => p.code)).toEqual(['SMALL', 'BIG', 'FAR']);
    expect(light.points[0]!.distance_km).toBeCloseTo(0.22, 1);
    expect(light.filtered_out).toBe(0);
    const heavy = await h.search(query(20));
    expect(heavy.points.map((p) => p.code)).toEqual(['BIG', 'FAR']);
    expect(heavy.filtered_out).toBe(1);
    expect((await h.search(query(1, { limit: 1 }))).points.map((p) => p.code)).toEqual(['SMALL']);
    expect(h.towns).toHaveLength(1);
    expect(h.towns[0]).toMatchObject({ city: 'Казань', centre: { lat: KAZAN.lat, lon: KAZAN.lon } });
  });

  it('a fresh directory answers from the store; a stale one answers at once while one refresh runs', async () => {
    const h = harness();
    const first = await h.search(query(1));
    h.advance(23 * HOUR);
    expect((await h.search(query(1))).directory_fetched_at).toBe(first.directory_fetched_at);
    expect(h.towns).toHaveLength(1);

    h.advance(2 * HOUR);
    let release!: (points: DirectoryPoint[]) => void;
    h.answer(() => new Promise((resolve) => (release = resolve)));
    const stale = await Promise.all([h.search(query(1)), h.search(query(1))]);
    for (const s of stale) expect(s.directory_fetched_at).toBe(first.directory_fetched_at);
    expect(h.towns, 'one refresh for both').toHaveLength(2);
    release([point('NEW', 30, 0.001)]);
    await h.search.idle();
    const fresh = await h.search(query(1));
    expect(fresh.points.map((p) => p.code)).toEqual(['NEW']);
    expect(Date.parse(fresh.directory_fetched_at!)).toBeGreaterThan(Date.parse(first.directory_fetched_at!));
  });

  it('a failed refresh keeps the old list and is not tried again for a while', async () => {
    const h = harness();
    const first = await h.search(query(1));
    h.advance(25 * HOUR);
    h.answer(() => Promise.reject(new PointDirectoryError('carrier_error', 'HTTP 502')));
    expect((await h.search(query(1))).points.map((p) => p.code)).toEqual(['SMALL', 'BIG']);
    await h.search.idle();
    const after = await h.search(query(1));
    expect(after.points.map((p) => p.code)).toEqual(['SMALL', 'BIG']);
    expect(after.directory_fetched_at).toBe(first.directory_fetched_at);
    expect(h.towns).toHaveLength(2);
    h.advance(RETRY_AFTER_MS + 1);
    h.answer(() => Promise.resolve([point('NEW', 30, 0)]));
    await h.search(query(1));
    await h.search.idle();
    expect(h.towns).toHaveLength(3);
    expect((await h.search(query(1))).points.map((p) => p.code)).toEqual(['NEW']);
  });

  it('a town never fetched whose fetch fails is an error, not an empty list', async () => {
    const h = harness();
    h.answer(() => Promise.reject(new PointDirectoryError('carrier_error', 'HTTP 500')));
    await expect(h.search(query(1))).rejects.toMatchObject({
      name: 'PointSearchError',
      kind: 'carrier_error',
    });
    h.answer(() => Promise.reject(new PointDirectoryError('town_not_found', 'Нигде')));
    await expect(h.search(query(1, { to: { city: 'Нигдеград' } }))).rejects.toMatchObject({
      kind: 'town_not_found',
    });
  });

  it('a carrier without a directory, or not enabled, is an error', async () => {
    const h = harness();
    h.lookup({ kind: 'none' });
    await expect(h.search(query(1))).rejects.toBeInstanceOf(PointSearchError);
    await expect(h.search(query(1))).rejects.toMatchObject({ kind: 'no_directory' });
    h.lookup({ kind: 'unknown' });
    await expect(h.search(query(1))).rejects.toMatchObject({ kind: 'unknown_carrier' });
  });

  it('keeps the directory per town: another town is fetched on its own', async () => {
    const h = harness();
    await h.search(query(1));
    await h.search(query(1, { to: { city: 'Москва' } }));
    expect(h.towns.map((t) => t.city)).toEqual(['Казань', 'Москва']);
    expect(await h.store.get('test points', 'казань|республика татарстан')).toBeDefined();
  });
});
