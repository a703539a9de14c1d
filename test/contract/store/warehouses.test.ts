// Named warehouses (port: WarehousesStore, #20): unique by name in any case (Cyrillic included), updated in
// place, removed without touching the quotes that name them.
import { describe, expect, it } from 'vitest';
import type { NewWarehouse } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { NOW, NOW_MS, historyRow, unique, useStore } from './harness';

const LATER = new Date(NOW_MS + 60_000).toISOString();

function warehouse(name: string, overrides: Partial<NewWarehouse> = {}): NewWarehouse {
  return {
    name,
    city: 'Подольск',
    postal_code: '142100',
    address: 'ул. Складская, 1',
    default_carriers_json: '["cdek","pek"]',
    box_presets_json: '[{"name":"Малая","length_cm":20,"width_cm":15,"height_cm":10}]',
    ...overrides,
  };
}

describe.each(STORE_IMPLEMENTATIONS)('warehouses ($name)', (impl) => {
  const fx = useStore(impl);

  it('creates, lists by name and finds by id; a name is taken in any case', async () => {
    const { store } = fx;
    const podolsk = await store.warehouses.create(warehouse('Склад Подольск'), NOW);
    expect(podolsk).toEqual({
      id: expect.any(Number),
      ...warehouse('Склад Подольск'),
      created_at: NOW,
      updated_at: NOW,
    });
    expect(await store.warehouses.create(warehouse('СКЛАД подольск'), LATER)).toBe('taken');
    const kazan = await store.warehouses.create(
      warehouse('Казань', { city: 'Казань', postal_code: null, address: '', box_presets_json: '[]' }),
      LATER,
    );
    expect(kazan).toMatchObject({ name: 'Казань', postal_code: null, address: '' });
    expect((await store.warehouses.list()).map((w) => w.name)).toEqual(['Казань', 'Склад Подольск']);
    if (podolsk === 'taken') throw new Error('taken');
    expect(await store.warehouses.byId(podolsk.id)).toEqual(podolsk);
    expect(await store.warehouses.byId(987_654)).toBeUndefined();
  });

  it('updates in place, refuses another warehouse’s name, and allows its own in another case', async () => {
    const { store } = fx;
    const a = await store.warehouses.create(warehouse('Север'), NOW);
    const b = await store.warehouses.create(warehouse('Юг'), NOW);
    if (a === 'taken' || b === 'taken') throw new Error('taken');
    const changed = warehouse('СЕВЕР', { city: 'Мытищи', default_carriers_json: '[]' });
    expect(await store.warehouses.update(a.id, changed, LATER)).toEqual({
      id: a.id,
      ...changed,
      created_at: NOW,
      updated_at: LATER,
    });
    expect(await store.warehouses.update(b.id, warehouse('север'), LATER)).toBe('taken');
    expect(await store.warehouses.byId(b.id)).toEqual(b);
    expect(await store.warehouses.update(987_654, warehouse('Новый'), LATER)).toBeUndefined();
  });

  it('removes a warehouse, frees its name, and leaves quotes naming it alone', async () => {
    const { store } = fx;
    const w = await store.warehouses.create(warehouse('Временный'), NOW);
    if (w === 'taken') throw new Error('taken');
    const marker = unique('from');
    const quoteId = await store.quotes.insert({
      ...historyRow(marker, unique('req'), '{}'),
      warehouse: 'Временный',
    });
    expect(await store.warehouses.remove(w.id)).toEqual(w);
    expect(await store.warehouses.remove(w.id)).toBeUndefined();
    expect(await store.warehouses.list()).toEqual([]);
    expect(await store.quotes.byId(quoteId)).toMatchObject({ warehouse: 'Временный' });
    expect(await store.warehouses.create(warehouse('временный'), LATER)).toMatchObject({ name: 'временный' });
  });
});
