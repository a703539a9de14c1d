// A stored 5Post pickup point for the catalogue's tests (the adapter's and the store slice's): a Kazan postamat
// with one hub rate, overridable field by field.
import type { StoredPoint } from '../../core/carriers/fivepost/points';

export function storedPoint(id: string, over: Partial<StoredPoint> = {}): StoredPoint {
  return {
    id,
    zip: '420000',
    cityKey: 'казань',
    region: 'Татарстан',
    point: {
      type: 'POSTAMAT',
      name: id,
      cell: null,
      rates: [{ rateType: 'HUB', baseKopecks: 18400, extraPerKgKopecks: 2400, vat: 22 }],
      days: { min: 2, max: 4 },
    },
    problem: null,
    ...over,
  };
}
