import { afterEach, describe, expect, it } from 'vitest';
import { memoryLocationCache, type LocationCache } from '../../../../core/locations/cache';
import {
  createLocationResolver,
  FOUND_TTL_MS,
  NOT_FOUND_TTL_MS,
  placeKey,
  type CarrierDirectory,
  type DirectoryAnswer,
  type DirectoryQuery,
} from '../../../../core/locations/resolver';
import { openStore, type SqliteStore } from '../../../../core/store';
import type { Logger } from '../../../../core/util/logger';

const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function store(): SqliteStore {
  const s = openStore(':memory:');
  stores.push(s);
  return s;
}

/** A directory that knows a few places and counts what it was asked. */
function directory(
  namespace = 'cdek http://sim',
  known: Record<string, string> = { кольцово: '4242', аргун: '7777' },
): CarrierDirectory & { asked: DirectoryQuery[]; fail?: string } {
  const d: CarrierDirectory & { asked: DirectoryQuery[]; fail?: string } = {
    namespace,
    asked: [],
    async lookup(query): Promise<DirectoryAnswer> {
      d.asked.push(query);
      if (d.fail) return { error: d.fail };
      const value = known[query.city.toLowerCase()];
      return value ? { found: true, value } : { found: false };
    },
  };
  return d;
}

const place = (city: string, postalCode: string | null = null) => ({ city, postalCode });

describe('LocationResolver: from the built-in table', () => {
  const r = createLocationResolver();

  it('a given postal code wins; otherwise the city’s main index, whatever the spelling', async () => {
    expect(await r.resolve(place('Где-то', '630099'), 'postal_code')).toEqual({
      ok: true,
      value: '630099',
      source: 'request',
      city: null,
    });
    for (const typed of ['спб', 'Питер', 'St. Petersburg', 'г. Санкт-Петербург', 'САНКТ-ПЕТЕРБУРГ']) {
      expect(await r.resolve(place(typed), 'postal_code')).toMatchObject({
        ok: true,
        value: '190000',
        source: 'table',
        city: { name: 'Санкт-Петербург' },
      });
    }
  });

  it('disambiguates namesakes by region, or by the postal code given with them', async () => {
    expect(await r.resolve(place('Киров, Калужская обл'), 'postal_code')).toMatchObject({ value: '249440' });
    expect(await r.resolve(place('Киров'), 'postal_code')).toMatchObject({ value: '610000' });
    expect(await r.resolve(place('Киров', '249441'), 'kladr_id')).toMatchObject({
      value: expect.stringMatching(/^40/), // Калужская область's KLADR region code
      city: { region: 'Калужская область' },
    });
  });

  it('answers KLADR and FIAS from the table', async () => {
    expect(await r.resolve(place('Москва'), 'kladr_id')).toMatchObject({ value: '7700000000000' });
    expect(await r.resolve(place('мск'), 'fias_id')).toMatchObject({
      value: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
    });
  });

  it('an unknown city is city_not_found, never "postal code required"; a known one without index is', async () => {
    expect(await r.resolve(place('Нигдевск'), 'postal_code')).toEqual({
      ok: false,
      kind: 'city_not_found',
      detail: 'Нигдевск',
    });
    expect(await r.resolve(place('  '), 'postal_code')).toMatchObject({ kind: 'city_not_found' });
    expect(await r.resolve(place('Аргун'), 'postal_code')).toEqual({
      ok: false,
      kind: 'postal_code_required',
      detail: 'Аргун',
    });
  });

  it('reads the city text as the city field does: an index, a town within Moscow, the Latin layout (#17)', async () => {
    // An index where the city goes, no postal code: the index is the postal code, its town the city.
    expect(await r.resolve(place('420111'), 'postal_code')).toMatchObject({
      value: '420111',
      source: 'request',
    });
    expect(await r.resolve(place('420111'), 'kladr_id')).toMatchObject({
      value: '1600000100000',
      city: { name: 'Казань' },
    });
    expect(await r.resolve(place('Зеленоград'), 'postal_code')).toMatchObject({
      value: '124482',
      city: { name: 'Зеленоград', region: 'Москва' },
    });
    // A town within Moscow keeps Moscow's KLADR: carriers keyed on it price the town as the city.
    expect(await r.resolve(place('Зеленоград'), 'kladr_id')).toMatchObject({ value: '7700000000000' });
    expect(await r.resolve(place('Rfpfym'), 'postal_code')).toMatchObject({ value: '420000' });
  });

  it('a carrier identifier needs the carrier’s directory', async () => {
    await expect(r.resolve(place('Москва'), 'cdek_city_code')).rejects.toThrow(/directory/);
  });

  it('an aborted signal stops it before anything is asked', async () => {
    const d = directory();
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(
      r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d, signal: controller.signal }),
    ).rejects.toThrow('gone');
    expect(d.asked).toEqual([]);
  });
});

describe('LocationResolver: from a carrier’s directory, cached', () => {
  it('asks once, then answers from the cache however the place is spelt', async () => {
    const d = directory();
    const r = createLocationResolver();
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d })).toEqual({
      ok: true,
      value: '4242',
      source: 'carrier',
      city: null,
    });
    expect(await r.resolve(place('г. КОЛЬЦОВО'), 'cdek_city_code', { directory: d })).toMatchObject({
      value: '4242',
      source: 'cache',
    });
    expect(d.asked).toEqual([{ city: 'Кольцово', region: null, postalCode: null }]);
  });

  it('tells the directory the table’s name and region when the table knows the city', async () => {
    const d = directory();
    const r = createLocationResolver();
    expect(await r.resolve(place('аргун'), 'cdek_city_code', { directory: d })).toMatchObject({
      value: '7777',
      city: { name: 'Аргун' },
    });
    expect(d.asked).toEqual([{ city: 'Аргун', region: 'Чеченская Республика', postalCode: null }]);
    // A table city without an index: the directory may still know its postal code.
    const postal = directory('postal http://x', { аргун: '366310' });
    expect(await r.resolve(place('Аргун'), 'postal_code', { directory: postal })).toMatchObject({
      ok: true,
      value: '366310',
    });
  });

  it('remembers "not found" for an hour, a found code for a month', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const d = directory();
    const r = createLocationResolver({ nowMs: () => now });
    expect(await r.resolve(place('Нигдевск'), 'cdek_city_code', { directory: d })).toMatchObject({
      kind: 'city_not_found',
      detail: 'Нигдевск',
    });
    await r.resolve(place('Нигдевск'), 'cdek_city_code', { directory: d });
    expect(d.asked).toHaveLength(1);
    now += NOT_FOUND_TTL_MS + 1;
    await r.resolve(place('Нигдевск'), 'cdek_city_code', { directory: d });
    expect(d.asked).toHaveLength(2);

    await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d });
    now += FOUND_TTL_MS - 1;
    await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d });
    expect(d.asked).toHaveLength(3);
    now += 2;
    await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d });
    expect(d.asked).toHaveLength(4);
  });

  it('a directory fault is carrier_error and is not cached', async () => {
    const d = directory();
    d.fail = 'CDEK city lookup failed: HTTP 502';
    const r = createLocationResolver();
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d })).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'CDEK city lookup failed: HTTP 502',
    });
    delete d.fail;
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: d })).toMatchObject({
      value: '4242',
      source: 'carrier',
    });
  });

  it('keeps each namespace apart: a simulator’s code never answers for the live host', async () => {
    const cache = memoryLocationCache();
    const r = createLocationResolver({ cache });
    const sim = directory('cdek http://127.0.0.1:4000/v2', { кольцово: '1' });
    const live = directory('cdek https://api.cdek.ru/v2', { кольцово: '2' });
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: sim })).toMatchObject({
      value: '1',
    });
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: live })).toMatchObject({
      value: '2',
      source: 'carrier',
    });
  });

  it('a cache that throws costs a directory call and a log line, never the answer', async () => {
    const broken: LocationCache = {
      get() {
        throw new Error('SQLITE_BUSY');
      },
      put() {
        throw new Error('SQLITE_BUSY');
      },
    };
    const warnings: string[] = [];
    const logger: Logger = { info() {}, error() {}, warn: (m) => void warnings.push(m) };
    const r = createLocationResolver({ cache: broken, logger });
    expect(await r.resolve(place('Кольцово'), 'cdek_city_code', { directory: directory() })).toMatchObject({
      value: '4242',
    });
    expect(warnings).toEqual(['location cache could not be read', 'location cache could not be written']);
  });

  it('one key per place: name, region and postal code, normalised', () => {
    expect(placeKey({ city: 'г. Киров', region: 'Калужская Область', postalCode: null })).toBe(
      'киров|калужская область|',
    );
    expect(placeKey({ city: 'Кольцово', region: null, postalCode: '630559' })).toBe('кольцово||630559');
  });
});

describe('the SQLite location cache (migration 0005)', () => {
  it('survives a restart: a new resolver on the same file answers from it', async () => {
    const s = store();
    const d = directory();
    await createLocationResolver({ cache: s.locationCache }).resolve(place('Кольцово'), 'cdek_city_code', {
      directory: d,
    });
    const again = createLocationResolver({ cache: s.locationCache });
    expect(await again.resolve(place('Кольцово'), 'cdek_city_code', { directory: d })).toMatchObject({
      value: '4242',
      source: 'cache',
    });
    expect(d.asked).toHaveLength(1);
    expect(s.db.prepare('SELECT namespace, want, place_key, value FROM location_cache').all()).toEqual([
      { namespace: 'cdek http://sim', want: 'cdek_city_code', place_key: 'кольцово||', value: '4242' },
    ]);
  });

  it('stores "not found" as NULL, replaces an entry, ignores expired rows and sweeps them on open', async () => {
    const s = store();
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const cache = s.locationCache;
    await cache.put({
      namespace: 'n',
      want: 'cdek_city_code',
      key: 'k',
      value: null,
      nowMs: t0,
      ttlMs: 1000,
    });
    expect(await cache.get('n', 'cdek_city_code', 'k', t0 + 999)).toEqual({ value: null });
    expect(await cache.get('n', 'cdek_city_code', 'k', t0 + 1000)).toBeUndefined();
    await cache.put({
      namespace: 'n',
      want: 'cdek_city_code',
      key: 'k',
      value: '44',
      nowMs: t0,
      ttlMs: 5000,
    });
    expect(await cache.get('n', 'cdek_city_code', 'k', t0 + 1000)).toEqual({ value: '44' });
    expect(await cache.get('n', 'terminal_id', 'k', t0)).toBeUndefined();
    const count = () => s.db.prepare('SELECT COUNT(*) FROM location_cache').pluck().get();
    expect(count()).toBe(1);
    await s.locationCache.sweepExpired(t0 + 4999);
    expect(count()).toBe(1);
    await s.locationCache.sweepExpired(t0 + 5000);
    expect(count()).toBe(0);
  });

  it('the table refuses rows no resolver writes', () => {
    const s = store();
    const insert = (namespace: string, value: string | null) =>
      s.db
        .prepare(
          `INSERT INTO location_cache (namespace, want, place_key, value, resolved_at, expires_at)
           VALUES (?, 'cdek_city_code', 'k', ?, 'now', 'later')`,
        )
        .run(namespace, value);
    expect(() => insert('', '1')).toThrow(/CHECK/);
    expect(() => insert('n', '')).toThrow(/CHECK/);
    insert('n', null);
    expect(() => insert('n', '1')).toThrow(/UNIQUE|PRIMARY/);
  });
});
