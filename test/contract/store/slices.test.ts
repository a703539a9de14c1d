// The smaller slices of the store port: quotes history, rate cards, the location cache, the pickup-point
// catalogue, carrier health and the integrity check.
import { describe, expect, it } from 'vitest';
import type { StoredPoint } from '../../../core/carriers/fivepost/points';
import type { CarrierHealthRow } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { historyRow, NOW, NOW_MS, rateCard, rateCardRows, unique, useStore } from './harness';

function point(id: string, zip: string | null, cityKey: string, readable = true): StoredPoint {
  return {
    id,
    zip,
    cityKey,
    region: 'Московская область',
    point: readable
      ? {
          type: 'POSTAMAT',
          name: `Постамат ${id}`,
          cell: { sidesMm: [410, 380, 640], maxWeightMg: 15_000_000 },
          rates: [
            {
              rateType: 'HUB_MOSCOW',
              rateTypeCode: '10',
              baseKopecks: 19_900,
              extraPerKgKopecks: 2_000,
              vat: 20,
            },
          ],
          days: { min: 1, max: 3 },
        }
      : null,
    problem: readable ? null : 'address.zipCode: Required',
  };
}

describe.each(STORE_IMPLEMENTATIONS)('store slices ($name)', (impl) => {
  const fx = useStore(impl);

  describe('quotes', () => {
    it('inserts, finds by id, searches by city or carrier, pages', async () => {
      const { store } = fx;
      const marker = unique('Тверь');
      const ids: number[] = [];
      const inserted = [];
      for (let i = 0; i < 5; i++) {
        const quote = { ...historyRow(marker, unique('req'), `{"i":${i}}`), source: 'desk' as const };
        inserted.push(quote);
        ids.push(await store.quotes.insert(quote));
      }
      expect(new Set(ids).size).toBe(5);
      expect(await store.quotes.byId(ids[0]!)).toEqual({ id: ids[0], ...inserted[0] });
      expect(await store.quotes.byId(987_654)).toBeUndefined();

      const all = await store.quotes.search(marker);
      expect(all.map((q) => q.id).sort((a, b) => a - b)).toEqual(ids);
      expect((await store.quotes.search('cdek')).length).toBeGreaterThanOrEqual(5);
      expect(await store.quotes.search(unique('nowhere'))).toEqual([]);

      const page1 = await store.quotes.search(marker, 2, 0);
      const page2 = await store.quotes.search(marker, 2, 2);
      const page3 = await store.quotes.search(marker, 2, 4);
      expect([page1.length, page2.length, page3.length]).toEqual([2, 2, 1]);
      expect(new Set([...page1, ...page2, ...page3].map((q) => q.id)).size).toBe(5);
    });

    it('treats % and _ in the search text as text', async () => {
      const { store } = fx;
      const marker = unique('Город');
      await store.quotes.insert(historyRow(`${marker} 100%_`, unique('req'), '{}'));
      await store.quotes.insert(historyRow(`${marker} 100ab`, unique('req'), '{}'));
      expect(await store.quotes.search(`${marker} 100%_`)).toHaveLength(1);
    });

    it('keeps who asked and from which warehouse, and filters by them exactly (#20)', async () => {
      const { store } = fx;
      const marker = unique('Склад');
      const rows = [
        { author: 'anna', warehouse: 'Подольск' },
        { author: 'anna', warehouse: 'Казань' },
        { author: 'Ivan', warehouse: 'Подольск' },
        { author: null, warehouse: null },
      ];
      const ids: number[] = [];
      for (const r of rows)
        ids.push(await store.quotes.insert({ ...historyRow(marker, unique('req'), '{}'), ...r }));
      expect(await store.quotes.byId(ids[2]!)).toMatchObject({ author: 'Ivan', warehouse: 'Подольск' });
      expect(await store.quotes.byId(ids[3]!)).toMatchObject({ author: null, warehouse: null });
      const found = async (filter: { author?: string; warehouse?: string }, text = marker) =>
        (await store.quotes.search(text, 100, 0, filter)).map((q) => q.id);
      expect(await found({})).toEqual([...ids].reverse());
      expect(await found({ author: 'anna' })).toEqual([ids[1], ids[0]]);
      expect(await found({ warehouse: 'Подольск' })).toEqual([ids[2], ids[0]]);
      expect(await found({ author: 'anna', warehouse: 'Подольск' })).toEqual([ids[0]]);
      expect(await found({ author: 'ivan' })).toEqual([]);
      expect(await found({ author: 'Ivan' }, '')).toEqual([ids[2]]);
      expect(await store.quotes.search(marker, 1, 1, { author: 'anna' })).toEqual([
        expect.objectContaining({ id: ids[0] }),
      ]);
    });
  });

  describe('rate cards', () => {
    it('publishes, lists, loads, replaces and removes a card', async () => {
      const { store } = fx;
      const code = unique('card');
      const rows = rateCardRows();
      const first = await store.rateCards.replace(rateCard(code), rows);
      expect(first.replaced).toBe(false);
      expect(await store.rateCards.versions()).toEqual([{ id: first.id, code }]);
      const record = { id: first.id, ...rateCard(code) };
      expect(await store.rateCards.byCode(code)).toEqual(record);
      expect(await store.rateCards.list()).toEqual([{ ...record, rows: 3, max_weight_grams: 30_000 }]);
      expect(await store.rateCards.load(first.id)).toEqual({ card: record, rows });
      expect(await store.rateCards.services(first.id)).toEqual([
        { key: 'express', service_name: 'Экспресс', delivery_type: 'door' },
        { key: 'economy', service_name: null, delivery_type: 'pickup_point' },
      ]);

      const second = await store.rateCards.replace(rateCard(code, 'Новая версия'), rows.slice(0, 1));
      expect(second.replaced).toBe(true);
      expect(second.id).not.toBe(first.id);
      expect(await store.rateCards.versions()).toEqual([{ id: second.id, code }]);
      expect(await store.rateCards.load(first.id)).toBeUndefined();
      expect(await store.rateCards.load(second.id)).toEqual({
        card: { id: second.id, ...rateCard(code, 'Новая версия') },
        rows: rows.slice(0, 1),
      });
      await store.rateCards.purgeAbandoned();
      expect(await store.rateCards.list()).toEqual([
        { id: second.id, ...rateCard(code, 'Новая версия'), rows: 1, max_weight_grams: 1000 },
      ]);

      expect(await store.rateCards.remove(code)).toEqual({
        id: second.id,
        ...rateCard(code, 'Новая версия'),
      });
      expect(await store.rateCards.byCode(code)).toBeUndefined();
      expect(await store.rateCards.load(second.id)).toBeUndefined();
      expect(await store.rateCards.versions()).toEqual([]);
      expect(await store.rateCards.list()).toEqual([]);
      expect(await store.rateCards.remove(code)).toBeUndefined();
    });

    it('keeps cards of different codes apart, and publishes a card in small chunks whole', async () => {
      const { store } = fx;
      const a = unique('card-a');
      const b = unique('card-b');
      const many = Array.from({ length: 25 }, (_, i) => ({ ...rateCardRows()[1]!, line: i + 2 }));
      const pauses: number[] = [];
      const ca = await store.rateCards.replace(rateCard(a), many, {
        chunkRows: 4,
        pause: () => void pauses.push(1),
      });
      const cb = await store.rateCards.replace(rateCard(b), rateCardRows());
      expect((await store.rateCards.versions()).sort((x, y) => x.id - y.id)).toEqual([
        { id: ca.id, code: a },
        { id: cb.id, code: b },
      ]);
      expect((await store.rateCards.load(ca.id))?.rows).toEqual(many);
      await store.rateCards.remove(a, { chunkRows: 4 });
      expect(await store.rateCards.versions()).toEqual([{ id: cb.id, code: b }]);
      expect(await store.rateCards.load(cb.id)).toMatchObject({ rows: rateCardRows() });
    });
  });

  describe('location cache', () => {
    it('answers a live entry, forgets an expired one, keeps null answers, and overwrites', async () => {
      const cache = fx.store.locationCache;
      const entry = { namespace: 'cdek:api.cdek.ru', want: 'city_code', key: 'москва', value: '44' };
      await cache.put({ ...entry, nowMs: NOW_MS, ttlMs: 60_000 });
      expect(await cache.get(entry.namespace, entry.want, entry.key, NOW_MS + 1)).toEqual({ value: '44' });
      expect(await cache.get(entry.namespace, entry.want, entry.key, NOW_MS + 59_000)).toEqual({
        value: '44',
      });
      expect(await cache.get(entry.namespace, entry.want, entry.key, NOW_MS + 61_000)).toBeUndefined();
      expect(await cache.get(entry.namespace, 'region_code', entry.key, NOW_MS + 1)).toBeUndefined();
      expect(await cache.get('pek:other', entry.want, entry.key, NOW_MS + 1)).toBeUndefined();

      await cache.put({ ...entry, key: 'атлантида', value: null, nowMs: NOW_MS, ttlMs: 60_000 });
      expect(await cache.get(entry.namespace, entry.want, 'атлантида', NOW_MS + 1)).toEqual({ value: null });

      await cache.put({ ...entry, value: '45', nowMs: NOW_MS + 120_000, ttlMs: 60_000 });
      expect(await cache.get(entry.namespace, entry.want, entry.key, NOW_MS + 121_000)).toEqual({
        value: '45',
      });

      await cache.sweepExpired(NOW_MS + 150_000);
      expect(await cache.get(entry.namespace, entry.want, entry.key, NOW_MS + 121_000)).toEqual({
        value: '45',
      });
      expect(await cache.get(entry.namespace, entry.want, 'атлантида', NOW_MS + 1)).toBeUndefined();
    });
  });

  describe('pickup catalogue', () => {
    it('replaces a namespace whole, counts it, and finds points by zip and city', async () => {
      const cat = fx.store.pickupCatalogue;
      const ns = unique('5post:api.5post.ru');
      expect(await cat.meta(ns)).toBeUndefined();
      expect(await cat.byZip(ns, '101000')).toEqual([]);

      const points = [
        point('p1', '101000', 'fias:moscow'),
        point('p2', '101000', 'fias:moscow'),
        point('p3', '190000', 'fias:spb'),
        point('p4', null, 'Тверь', false),
      ];
      await cat.replace(ns, points, NOW_MS);
      expect(await cat.meta(ns)).toEqual({ refreshedAtMs: NOW_MS, points: 3, unreadable: 1 });
      const byId = (a: StoredPoint, b: StoredPoint) => a.id.localeCompare(b.id);
      expect((await cat.byZip(ns, '101000')).sort(byId)).toEqual([points[0], points[1]]);
      expect(await cat.byCity(ns, 'fias:spb')).toEqual([points[2]]);
      expect(await cat.byCity(ns, 'Тверь')).toEqual([points[3]]);
      expect(await cat.byCity(ns, 'nowhere')).toEqual([]);

      const other = unique('5post:other-host');
      await cat.replace(other, [point('q1', '101000', 'fias:moscow')], NOW_MS + 1000);
      expect(await cat.byZip(other, '101000')).toHaveLength(1);
      expect(await cat.byZip(ns, '101000')).toHaveLength(2);

      await cat.replace(ns, [point('p5', '190000', 'fias:spb')], NOW_MS + 2000);
      expect(await cat.meta(ns)).toEqual({ refreshedAtMs: NOW_MS + 2000, points: 1, unreadable: 0 });
      expect(await cat.byZip(ns, '101000')).toEqual([]);
      expect((await cat.byCity(ns, 'fias:spb')).map((p) => p.id)).toEqual(['p5']);
      expect(await cat.byZip(other, '101000')).toHaveLength(1);
    });
  });

  describe('carrier health', () => {
    it('upserts rows by carrier code', async () => {
      const { store } = fx;
      const cdek: CarrierHealthRow = {
        code: 'cdek',
        status: 'available',
        consecutive_failures: 0,
        last_error: null,
        last_success_at: NOW,
        last_failure_at: null,
        latency_ms_median: 120,
      };
      const pek: CarrierHealthRow = {
        code: 'pek',
        status: 'unavailable',
        consecutive_failures: 3,
        last_error: 'timeout after 8000 ms',
        last_success_at: null,
        last_failure_at: NOW,
        latency_ms_median: null,
      };
      expect(await store.carrierHealth.all()).toEqual([]);
      await store.carrierHealth.upsert(cdek);
      await store.carrierHealth.upsert(pek);
      const byCode = (a: CarrierHealthRow, b: CarrierHealthRow) => a.code.localeCompare(b.code);
      expect((await store.carrierHealth.all()).sort(byCode)).toEqual([cdek, pek]);

      const cdekDown = {
        ...cdek,
        status: 'unknown' as const,
        consecutive_failures: 1,
        last_error: 'HTTP 502',
      };
      await store.carrierHealth.upsert(cdekDown);
      expect((await store.carrierHealth.all()).sort(byCode)).toEqual([cdekDown, pek]);
    });

    it('keeps the last of a burst of changes sent without waiting (a breaker opening)', async () => {
      const { store } = fx;
      const row = (n: number): CarrierHealthRow => ({
        code: 'dpd',
        status: n === 3 ? 'unavailable' : 'unknown',
        consecutive_failures: n,
        last_error: `timeout ${n}`,
        last_success_at: null,
        last_failure_at: NOW,
        latency_ms_median: null,
      });
      for (let round = 0; round < 20; round++) {
        await Promise.all([1, 2, 3].map((n) => store.carrierHealth.upsert(row(n))));
        expect(await store.carrierHealth.all(), `round ${round}`).toEqual([row(3)]);
        await store.carrierHealth.upsert(row(0));
      }
    });
  });

  describe('integrity check', () => {
    it('finds a fresh store sound, and a used one too', async () => {
      const { store } = fx;
      expect(await store.integrityCheck()).toEqual({ ok: true });
      await store.accounts.create(unique('used'), 3, NOW);
      await store.rateCards.replace(rateCard(unique('card')), rateCardRows());
      expect(await store.integrityCheck()).toEqual({ ok: true });
    });
  });

  describe('location', () => {
    it('names where the data lives', () => {
      expect(typeof fx.store.location).toBe('string');
      expect(fx.store.location.length).toBeGreaterThan(0);
    });
  });
});
