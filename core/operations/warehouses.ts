// Named warehouses (#20): the origins a quote is asked from. A quote records the warehouse by the name it had
// then, so renaming or removing one leaves History as it was.
import { CARRIER_CODES } from '../carriers/types';
import type { WarehouseFields } from '../contract/operations';
import type { NewWarehouse, Store, WarehouseRow } from '../store/port';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';
import { warehouseView } from './warehouse-view';

export { warehouseView };

export async function requireWarehouse(store: Store, id: number): Promise<WarehouseRow> {
  const row = await store.warehouses.byId(id);
  if (!row) throw noWarehouse(id);
  return row;
}

function noWarehouse(id: number): OperationError {
  return new OperationError('not_found', `No warehouse #${id}. See "warehouses list".`);
}

function taken(name: string): OperationError {
  return new OperationError('conflict', `A warehouse named ${JSON.stringify(name)} already exists.`);
}

/** A carrier code that quotes nothing (a typo, a removed rate card) would silently narrow every quote. */
async function storedFields(store: Store, fields: WarehouseFields): Promise<NewWarehouse> {
  if (fields.default_carriers.length > 0) {
    const known = new Set<string>([...CARRIER_CODES, ...(await store.rateCards.list()).map((c) => c.code)]);
    const unknown = fields.default_carriers.filter((code) => !known.has(code));
    if (unknown.length > 0) {
      throw new OperationError(
        'invalid',
        `default_carriers: unknown carrier ${unknown.map((c) => JSON.stringify(c)).join(', ')}. Known: ${[...known].join(', ')}.`,
      );
    }
  }
  return {
    name: fields.name,
    city: fields.city,
    postal_code: fields.postal_code,
    address: fields.address,
    default_carriers_json: JSON.stringify([...new Set(fields.default_carriers)]),
    box_presets_json: JSON.stringify(fields.box_presets),
  };
}

type WarehouseOperation = 'warehouses:list' | 'warehouses:create' | 'warehouses:update' | 'warehouses:remove';

export const warehouseOperations = {
  'warehouses:list': {
    needs: 'store',
    run: async ({ store }) => (await store.warehouses.list()).map(warehouseView),
  },

  'warehouses:create': {
    needs: 'store',
    run: async ({ store, clock }, fields) => {
      const row = await store.warehouses.create(await storedFields(store, fields), clock.now().toISOString());
      if (row === 'taken') throw taken(fields.name);
      return warehouseView(row);
    },
  },

  'warehouses:update': {
    needs: 'store',
    run: async ({ store, clock }, { id, ...fields }) => {
      const row = await store.warehouses.update(
        id,
        await storedFields(store, fields),
        clock.now().toISOString(),
      );
      if (row === 'taken') throw taken(fields.name);
      if (!row) throw noWarehouse(id);
      return warehouseView(row);
    },
  },

  'warehouses:remove': {
    needs: 'store',
    run: async ({ store }, { id }) => {
      const row = await store.warehouses.remove(id);
      if (!row) throw noWarehouse(id);
      return { id: row.id, name: row.name };
    },
  },
} satisfies AreaOperations<WarehouseOperation>;

const ops = warehouseOperations;
export const createWarehouse = storeCall('warehouses:create', ops['warehouses:create']);
export const listWarehouses = storeCall('warehouses:list', ops['warehouses:list']);
