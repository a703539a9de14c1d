// Which points take the parcel: every box within the point's weight and (turned any way) its largest box,
// the volume and sum of sides where a carrier publishes those, the whole shipment where it limits that, COD
// and card only where taken. An unpublished limit refuses nothing.
import { describe, expect, it } from 'vitest';
import type { DirectoryPoint } from '../../../../core/carriers/point-directory';
import { distanceKm, pointTakes } from '../../../../core/points/filter';

const point = (over: Partial<DirectoryPoint> = {}): DirectoryPoint => ({
  code: 'P1',
  kind: 'pvz',
  name: 'ПВЗ',
  address: '',
  hours: '',
  lat: null,
  lon: null,
  max_weight_grams: 15_000,
  max_dimensions_cm: [60, 40, 40],
  cod: true,
  card: true,
  ...over,
});
const box = (grams: number, l = 30, w = 20, h = 10) => ({
  weight_grams: grams,
  length_cm: l,
  width_cm: w,
  height_cm: h,
});
const needs = (boxes: ReturnType<typeof box>[], cod = false, card = false) => ({ boxes, cod, card });

describe('pointTakes', () => {
  it('a 20 kg box is never taken by a 15 kg point; 15 kg exactly is', () => {
    expect(pointTakes(point(), needs([box(20_000)]))).toBe(false);
    expect(pointTakes(point(), needs([box(15_001)]))).toBe(false);
    expect(pointTakes(point(), needs([box(15_000)]))).toBe(true);
    expect(pointTakes(point({ max_weight_grams: 30_000 }), needs([box(20_000)]))).toBe(true);
  });

  it('every box counts, not the first', () => {
    expect(pointTakes(point(), needs([box(1_000), box(16_000)]))).toBe(false);
  });

  it('sides are compared sorted, so a box may be turned', () => {
    expect(pointTakes(point(), needs([box(1_000, 40, 60, 40)]))).toBe(true);
    expect(pointTakes(point(), needs([box(1_000, 61, 10, 10)]))).toBe(false);
    expect(pointTakes(point(), needs([box(1_000, 50, 45, 41)]))).toBe(false);
  });

  it('volume, sum of sides and the whole shipment where published', () => {
    expect(
      pointTakes(point({ max_dimensions_cm: null, max_volume_cm3: 27_000 }), needs([box(1, 30, 30, 30)])),
    ).toBe(true);
    expect(
      pointTakes(point({ max_dimensions_cm: null, max_volume_cm3: 26_999 }), needs([box(1, 30, 30, 30)])),
    ).toBe(false);
    expect(pointTakes(point({ max_dimension_sum_cm: 60 }), needs([box(1, 30, 20, 10)]))).toBe(true);
    expect(pointTakes(point({ max_dimension_sum_cm: 59 }), needs([box(1, 30, 20, 10)]))).toBe(false);
    const shop = point({ max_shipment_weight_grams: 20_000 });
    expect(pointTakes(shop, needs([box(10_000), box(10_000)]))).toBe(true);
    expect(pointTakes(shop, needs([box(10_000), box(10_001)]))).toBe(false);
  });

  it('cash on delivery and card only where the point takes them', () => {
    expect(pointTakes(point({ cod: false }), needs([box(1)], true))).toBe(false);
    expect(pointTakes(point({ cod: false }), needs([box(1)], false))).toBe(true);
    expect(pointTakes(point({ card: false }), needs([box(1)], false, true))).toBe(false);
    expect(pointTakes(point({ card: false }), needs([box(1)]))).toBe(true);
  });

  it('a limit not published refuses nothing', () => {
    const unknown = point({ max_weight_grams: null, max_dimensions_cm: null });
    expect(pointTakes(unknown, needs([box(40_000, 150, 100, 100)]))).toBe(true);
  });
});

describe('distanceKm', () => {
  it('is the great-circle distance, rounded to 10 m', () => {
    // Kazan Kremlin to Kazan railway station: about 1.25 km.
    expect(distanceKm({ lat: 55.7987, lon: 49.1059 }, { lat: 55.788, lon: 49.0997 })).toBeCloseTo(1.25, 1);
    expect(distanceKm({ lat: 55, lon: 37 }, { lat: 55, lon: 37 })).toBe(0);
    // A degree of latitude is ~111 km.
    expect(distanceKm({ lat: 55, lon: 37 }, { lat: 56, lon: 37 })).toBeCloseTo(111.2, 0);
  });
});
