// Named warehouses on the company database (#20): unique by name, case-folded (name-key.ts). A name taken
// by a concurrent writer surfaces as the unique violation it is, answered as 'taken'.
import { nameKey } from '../name-key';
import type { NewWarehouse, WarehouseRow, WarehousesStore } from '../port';
import { isUniqueViolation } from './accounts';
import type { PgDb } from './pool';

const COLUMNS =
  'id, name, city, postal_code, address, default_carriers_json, box_presets_json, created_at, updated_at';

const values = (w: NewWarehouse): unknown[] => [
  w.name,
  nameKey(w.name),
  w.city,
  w.postal_code,
  w.address,
  w.default_carriers_json,
  w.box_presets_json,
];

export function pgWarehouses(db: PgDb): WarehousesStore {
  return {
    list: () => db.rows<WarehouseRow>(`SELECT ${COLUMNS} FROM warehouses ORDER BY name_key, id`),
    byId: (id) => db.first<WarehouseRow>(`SELECT ${COLUMNS} FROM warehouses WHERE id = $1`, [id]),
    async create(w, now) {
      const row = await db.first<WarehouseRow>(
        `INSERT INTO warehouses (name, name_key, city, postal_code, address, default_carriers_json,
                                 box_presets_json, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (name_key) DO NOTHING RETURNING ${COLUMNS}`,
        [...values(w), now],
      );
      return row ?? 'taken';
    },
    async update(id, w, now) {
      try {
        return await db.first<WarehouseRow>(
          `UPDATE warehouses SET name = $2, name_key = $3, city = $4, postal_code = $5, address = $6,
             default_carriers_json = $7, box_presets_json = $8, updated_at = $9
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [id, ...values(w), now],
        );
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },
    remove: (id) => db.first<WarehouseRow>(`DELETE FROM warehouses WHERE id = $1 RETURNING ${COLUMNS}`, [id]),
  };
}
