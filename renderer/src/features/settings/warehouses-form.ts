// The warehouse form (#20) as typed, checked as a whole before it is sent: each problem named in the field
// it belongs to, the boxes by the same rule as the General tab's (checkPresets). Pure: unit-tested in Node.
import type { Warehouse, WarehouseFields } from '../../../../core/desk/contract';
import { checkPresets, type PresetDraft, type PresetErrors } from './logic';

export interface WarehouseDraft {
  name: string;
  city: string;
  postal: string;
  address: string;
  /** null: every carrier (the desk's own default). */
  carriers: string[] | null;
  boxes: PresetDraft[];
}

export type WarehouseField = 'name' | 'city' | 'postal' | 'address';
export type WarehouseProblem = 'name' | 'nameTaken' | 'city' | 'postal';

export const EMPTY_WAREHOUSE: WarehouseDraft = {
  name: '',
  city: '',
  postal: '',
  address: '',
  carriers: null,
  boxes: [],
};

/** The contract's input bounds (WarehouseFields), as the form enforces them while typing. */
export const WAREHOUSE_LIMITS = { name: 80, city: 120, address: 300, boxes: 30 } as const;

export function draftOf(w: Warehouse, boxes: PresetDraft[]): WarehouseDraft {
  return {
    name: w.name,
    city: w.city,
    postal: w.postal_code ?? '',
    address: w.address,
    carriers: w.default_carriers.length > 0 ? [...w.default_carriers] : null,
    boxes,
  };
}

export interface CheckedWarehouse {
  errors: Partial<Record<WarehouseField, WarehouseProblem>>;
  boxErrors: PresetErrors;
  /** The operation's input; null while anything is wrong. */
  value: WarehouseFields | null;
}

/**
 * `others`: the names of the other warehouses (a second «Подольск» is refused by the core too; said here in
 * the field, before the round trip). Names compare case-insensitively, as the store's unique index does.
 */
export function checkWarehouse(d: WarehouseDraft, others: readonly string[]): CheckedWarehouse {
  const errors: CheckedWarehouse['errors'] = {};
  const name = d.name.trim();
  const city = d.city.trim();
  const postal = d.postal.replace(/\s+/g, '');
  if (name === '') errors.name = 'name';
  else if (others.some((o) => o.trim().toLowerCase() === name.toLowerCase())) errors.name = 'nameTaken';
  if (city === '') errors.city = 'city';
  if (postal !== '' && !/^\d{6}$/.test(postal)) errors.postal = 'postal';
  const boxes = checkPresets(d.boxes);
  const ok = Object.keys(errors).length === 0 && boxes.value !== null;
  return {
    errors,
    boxErrors: boxes.errors,
    value: ok
      ? {
          name,
          city,
          postal_code: postal === '' ? null : postal,
          address: d.address.trim(),
          default_carriers: d.carriers ?? [],
          box_presets: boxes.value!,
        }
      : null,
  };
}
