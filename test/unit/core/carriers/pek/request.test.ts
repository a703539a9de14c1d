// The calculateprice body against verified-2026.md §5.2: `types` (not transportingTypes), kg / m / m³ with at
// most two decimals rounded up, warehouses for terminals, an address for the door, roubles for insurance.
import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../../../../../core/carriers/pek/api';
import { parsePekTypes } from '../../../../../core/carriers/pek/products';
import {
  buildCalculateRequest,
  kopecksToRoubles,
  pekCargo,
  plannedDateTime,
} from '../../../../../core/carriers/pek/request';

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };
const now = new Date('2026-03-10T07:00:00Z');

describe('PEK request', () => {
  it('cargo in kg (exact), metres and m³ (two decimals, rounded up)', () => {
    expect(pekCargo(parcel)).toEqual({ length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 });
    expect(pekCargo({ weight_grams: 1871, length_cm: 30.2, width_cm: 20, height_cm: 10 })).toEqual({
      length: 0.31,
      width: 0.2,
      height: 0.1,
      volume: 0.01,
      weight: 1.871,
    });
    expect(pekCargo({ weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 })).toEqual({
      length: 3,
      width: 3,
      height: 3,
      volume: 27,
      weight: 900,
    });
  });

  it('to the terminal: both warehouses, no delivery, the current `types` field', () => {
    const body = buildCalculateRequest({
      types: [3],
      senderWarehouseId: 'from-guid',
      to: { warehouseId: 'to-guid' },
      places: [parcel],
      declaredValueKopecks: 0,
      now,
    });
    expect(body).toEqual({
      types: [3],
      senderWarehouseId: 'from-guid',
      isPickUp: false,
      isDelivery: false,
      receiverWarehouseId: 'to-guid',
      plannedDateTime: '2026-03-10T10:00:00',
      cargos: [{ length: 0.3, width: 0.2, height: 0.15, volume: 0.01, weight: 1.2 }],
      isInsurance: false,
      currencyCode: '643',
    });
    expect(body).not.toHaveProperty('transportingTypes');
  });

  it('to the door: isDelivery with the address; insurance in roubles', () => {
    const body = buildCalculateRequest({
      types: [3, 1],
      senderWarehouseId: 'from-guid',
      to: { address: '420000, Республика Татарстан, Казань' },
      places: [parcel],
      declaredValueKopecks: 150_005,
      now,
    });
    expect(body).toMatchObject({
      types: [3, 1],
      isDelivery: true,
      delivery: { address: '420000, Республика Татарстан, Казань' },
      isInsurance: true,
      isInsurancePrice: 1500.05,
    });
    expect(body).not.toHaveProperty('receiverWarehouseId');
  });

  it('kopecks → roubles exactly; Moscow time; Basic auth of login:key; product setting', () => {
    expect(kopecksToRoubles(150_000)).toBe(1500);
    expect(kopecksToRoubles(825)).toBe(8.25);
    expect(kopecksToRoubles(7)).toBe(0.07);
    expect(plannedDateTime(new Date('2026-12-31T22:30:00Z'))).toBe('2027-01-01T01:30:00');
    expect(basicAuthorization('shop', 'key:1')).toBe(`Basic ${Buffer.from('shop:key:1').toString('base64')}`);
    expect(parsePekTypes('3,1,12,3')).toEqual([3, 1, 12]);
    expect(parsePekTypes('5')).toEqual([3]);
  });
});
