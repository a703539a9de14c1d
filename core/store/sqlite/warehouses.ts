// Named warehouses in the data file (#20): unique by name, case-folded (name-key.ts).
import { nameKey } from '../name-key';
import type { NewWarehouse, WarehouseRow, WarehousesStore } from '../port';
import type { Db } from './open';
import type { SqliteRunner } from './runner';

const COLUMNS =
  'id, name, city, postal_code, address, default_carriers_json, box_presets_json, created_at, updated_at';

type Params = NewWarehouse & { name_key: string; now: string };

export function warehousesRepo(db: Db) {
  const insert = db.prepare<Params>(`
    INSERT INTO warehouses (name, name_key, city, postal_code, address, default_carriers_json, box_presets_json,
                            created_at, updated_at)
    VALUES (@name, @name_key, @city, @postal_code, @address, @default_carriers_json, @box_presets_json, @now, @now)
    ON CONFLICT (name_key) DO NOTHING`);
  const update = db.prepare<Params & { id: number }>(`
    UPDATE warehouses SET name = @name, name_key = @name_key, city = @city, postal_code = @postal_code,
      address = @address, default_carriers_json = @default_carriers_json, box_presets_json = @box_presets_json,
      updated_at = @now
    WHERE id = @id`);
  const byId = db.prepare<[number], WarehouseRow>(`SELECT ${COLUMNS} FROM warehouses WHERE id = ?`);
  const idByKey = db.prepare<[string], number>('SELECT id FROM warehouses WHERE name_key = ?').pluck();
  const all = db.prepare<[], WarehouseRow>(`SELECT ${COLUMNS} FROM warehouses ORDER BY name_key, id`);
  const remove = db.prepare<[number]>('DELETE FROM warehouses WHERE id = ?');

  const params = (w: NewWarehouse, now: string): Params => ({
    name: w.name,
    name_key: nameKey(w.name),
    city: w.city,
    postal_code: w.postal_code,
    address: w.address,
    default_carriers_json: w.default_carriers_json,
    box_presets_json: w.box_presets_json,
    now,
  });

  return {
    list: (): WarehouseRow[] => all.all(),
    byId: (id: number): WarehouseRow | undefined => byId.get(id),
    /** Undefined when the name is taken. */
    create(w: NewWarehouse, now: string): WarehouseRow | undefined {
      const done = insert.run(params(w, now));
      return done.changes === 1 ? byId.get(Number(done.lastInsertRowid)) : undefined;
    },
    /** Inside a write transaction: the name check and the update see the same rows. */
    update(id: number, w: NewWarehouse, now: string): WarehouseRow | 'taken' | undefined {
      if (!byId.get(id)) return undefined;
      const holder = idByKey.get(nameKey(w.name));
      if (holder !== undefined && holder !== id) return 'taken';
      update.run({ ...params(w, now), id });
      return byId.get(id);
    },
    remove(id: number): WarehouseRow | undefined {
      const row = byId.get(id);
      if (row) remove.run(id);
      return row;
    },
  };
}

export type WarehousesRepo = ReturnType<typeof warehousesRepo>;

export function sqliteWarehouses(r: WarehousesRepo, run: SqliteRunner): WarehousesStore {
  return {
    list: () => run.read(() => r.list()),
    byId: (id) => run.read(() => r.byId(id)),
    create: (w, now) => run.write(null, () => r.create(w, now) ?? ('taken' as const)),
    update: (id, w, now) => run.write(null, () => r.update(id, w, now)),
    remove: (id) => run.write(null, () => r.remove(id)),
  };
}
