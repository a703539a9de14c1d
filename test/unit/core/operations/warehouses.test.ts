// Named warehouses through the operations (#20), on both stores: fields, unique names, carrier codes that
// exist, and the audit entry of an update naming only what changed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OperationError, runStore, type StoreContext } from '../../../../core/operations';
import type { Store } from '../../../../core/store/port';
import { STORE_IMPLEMENTATIONS, type OpenedStore } from '../../../contract/store/implementations';
import { TestClock } from '../../../helpers/store-fixtures';

async function operationError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

const PODOLSK = {
  name: 'Склад Подольск',
  city: 'Подольск',
  postal_code: '142100',
  address: 'ул. Правды, 20',
  default_carriers: ['cdek', 'dpd'],
  box_presets: [{ name: 'Малая', length_cm: 20, width_cm: 15, height_cm: 10 }],
};

describe.each(STORE_IMPLEMENTATIONS.map((impl) => [impl.name, impl] as const))(
  'warehouses on %s',
  (_n, impl) => {
    let opened: OpenedStore;
    let store: Store;
    let clock: TestClock;
    const ctx = (): StoreContext => ({ store, clock });

    beforeEach(async () => {
      clock = new TestClock();
      opened = await impl.open();
      store = opened.store;
    });
    afterEach(() => opened.cleanup());

    it('creates, lists, updates and removes a warehouse with every field', async () => {
      const created = await runStore(ctx(), 'warehouses:create', PODOLSK);
      expect(created).toEqual({
        id: created.id,
        ...PODOLSK,
        created_at: '2025-03-01T10:00:00.000Z',
        updated_at: '2025-03-01T10:00:00.000Z',
      });
      // The defaults: no index, no address, the desk's own carriers and presets.
      const minimal = await runStore(ctx(), 'warehouses:create', { name: 'Казань', city: 'Казань' });
      expect(minimal).toMatchObject({
        postal_code: null,
        address: '',
        default_carriers: [],
        box_presets: [],
      });
      expect((await runStore(ctx(), 'warehouses:list', undefined)).map((w) => w.name).sort()).toEqual([
        'Казань',
        'Склад Подольск',
      ]);
      clock.advance(60_000);
      const updated = await runStore(ctx(), 'warehouses:update', {
        id: created.id,
        ...PODOLSK,
        address: 'ул. Правды, 22',
        default_carriers: [],
      });
      expect(updated).toMatchObject({
        address: 'ул. Правды, 22',
        default_carriers: [],
        created_at: '2025-03-01T10:00:00.000Z',
        updated_at: '2025-03-01T10:01:00.000Z',
      });
      expect(await runStore(ctx(), 'warehouses:remove', { id: created.id })).toEqual({
        id: created.id,
        name: 'Склад Подольск',
      });
      expect((await runStore(ctx(), 'warehouses:list', undefined)).map((w) => w.name)).toEqual(['Казань']);
    });

    it('refuses a taken name, an unknown id, a carrier that does not exist, a bad index', async () => {
      const a = await runStore(ctx(), 'warehouses:create', PODOLSK);
      const b = await runStore(ctx(), 'warehouses:create', { name: 'Казань', city: 'Казань' });
      const taken = await operationError(() =>
        runStore(ctx(), 'warehouses:create', { name: 'склад подольск', city: 'Подольск' }),
      );
      expect([taken.code, taken.message]).toEqual([
        'conflict',
        'A warehouse named "склад подольск" already exists.',
      ]);
      const renamed = await operationError(() =>
        runStore(ctx(), 'warehouses:update', { id: b.id, name: PODOLSK.name, city: 'Казань' }),
      );
      expect(renamed.code).toBe('conflict');
      for (const call of [
        () => runStore(ctx(), 'warehouses:update', { id: a.id + 100, name: 'x', city: 'y' }),
        () => runStore(ctx(), 'warehouses:remove', { id: a.id + 100 }),
      ]) {
        const e = await operationError(call);
        expect([e.code, e.message]).toEqual([
          'not_found',
          `No warehouse #${a.id + 100}. See "warehouses list".`,
        ]);
      }
      const carrier = await operationError(() =>
        runStore(ctx(), 'warehouses:create', { name: 'X', city: 'Y', default_carriers: ['cdek', 'sdek'] }),
      );
      expect(carrier.code).toBe('invalid');
      expect(carrier.message).toMatch(/^default_carriers: unknown carrier "sdek"\. Known: cdek, /);
      expect(
        (
          await operationError(() =>
            runStore(ctx(), 'warehouses:create', { name: 'X', city: 'Y', postal_code: '1421' }),
          )
        ).code,
      ).toBe('invalid');
    });

    it('accepts a rate card’s code as a default carrier', async () => {
      await runStore(ctx(), 'ratecards:import', {
        code: 'courier',
        name: 'Курьер',
        csv: 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,5000,300,1,2,door\n',
      });
      const w = await runStore(ctx(), 'warehouses:create', {
        name: 'X',
        city: 'Y',
        default_carriers: ['courier'],
      });
      expect(w.default_carriers).toEqual(['courier']);
    });

    it('writes what an update changed (and the old name of a renamed warehouse) to the audit log', async () => {
      const w = await runStore(ctx(), 'warehouses:create', PODOLSK);
      await runStore(ctx(), 'warehouses:update', {
        id: w.id,
        ...PODOLSK,
        name: 'Подольск-2',
        postal_code: '142110',
      });
      await runStore(ctx(), 'warehouses:remove', { id: w.id });
      const entries = (await runStore(ctx(), 'audit:search', { action: 'warehouses' })).reverse();
      expect(entries.map((e) => [e.action, e.target, e.detail])).toEqual([
        [
          'warehouses:create',
          'Склад Подольск',
          {
            name: 'Склад Подольск',
            city: 'Подольск',
            postal_code: '142100',
            address: 'ул. Правды, 20',
            default_carriers: 'cdek,dpd',
            box_presets: 'Малая 20×15×10',
          },
        ],
        [
          'warehouses:update',
          'Подольск-2',
          { id: w.id, name: 'Подольск-2', postal_code: '142110', was: 'Склад Подольск' },
        ],
        ['warehouses:remove', 'Подольск-2', { id: w.id }],
      ]);
    });
  },
);
