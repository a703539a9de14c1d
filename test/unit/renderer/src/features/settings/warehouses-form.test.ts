import { describe, expect, it } from 'vitest';
import { WarehouseFields } from '../../../../../../core/contract/operations/company';
import {
  checkWarehouse,
  EMPTY_WAREHOUSE,
  type WarehouseDraft,
} from '../../../../../../renderer/src/features/settings/warehouses-form';

const good: WarehouseDraft = {
  name: ' Подольск ',
  city: 'Подольск',
  postal: '142 100',
  address: ' ул. Комсомольская, 1 ',
  carriers: ['cdek'],
  boxes: [{ id: 1, name: 'P', length: '40', width: '30,5', height: '20' }],
};

describe('the warehouse form', () => {
  it('gives the operation input the contract accepts', () => {
    const r = checkWarehouse(good, ['Москва']);
    expect(r.value).toEqual({
      name: 'Подольск',
      city: 'Подольск',
      postal_code: '142100',
      address: 'ул. Комсомольская, 1',
      default_carriers: ['cdek'],
      box_presets: [{ name: 'P', length_cm: 40, width_cm: 30.5, height_cm: 20 }],
    });
    expect(WarehouseFields.safeParse(r.value).success).toBe(true);
    // No postal code and every carrier: null and [] (the desk's own defaults).
    const bare = checkWarehouse({ ...EMPTY_WAREHOUSE, name: 'A', city: 'B' }, []);
    expect(bare.value).toMatchObject({ postal_code: null, default_carriers: [], box_presets: [] });
    expect(WarehouseFields.safeParse(bare.value).success).toBe(true);
  });

  it('names each problem in its field, and a taken name whatever its case', () => {
    const r = checkWarehouse({ ...EMPTY_WAREHOUSE, postal: '1421' }, []);
    expect(r.value).toBeNull();
    expect(r.errors).toEqual({ name: 'name', city: 'city', postal: 'postal' });
    expect(checkWarehouse({ ...good, name: 'москва' }, ['Москва']).errors).toEqual({ name: 'nameTaken' });
  });

  it('checks the boxes by the General tab rule', () => {
    const r = checkWarehouse(
      { ...good, boxes: [{ id: 7, name: '', length: '0', width: '1', height: 'x' }] },
      [],
    );
    expect(r.value).toBeNull();
    expect(r.errors).toEqual({});
    expect(r.boxErrors[7]).toEqual({ name: 'empty', length: 'range', height: 'format' });
  });
});
