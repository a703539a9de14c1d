// A stored warehouse row as operations show it (apart from warehouses.ts, which the audit log's module
// cannot import: that would close an import cycle through define.ts).
import { z } from 'zod';
import type { Warehouse } from '../contract/operations';
import type { WarehouseRow } from '../store/port';

const StoredCarriers = z.array(z.string());
const StoredPresets = z.array(
  z.object({ name: z.string(), length_cm: z.number(), width_cm: z.number(), height_cm: z.number() }),
);

/** Written by this module from checked input; a damaged column reads as empty rather than breaking the list. */
function storedArray<T>(schema: z.ZodType<T[]>, json: string): T[] {
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function warehouseView(row: WarehouseRow): Warehouse {
  return {
    id: row.id,
    name: row.name,
    city: row.city,
    postal_code: row.postal_code,
    address: row.address,
    default_carriers: storedArray(StoredCarriers, row.default_carriers_json),
    box_presets: storedArray(StoredPresets, row.box_presets_json),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
