// The bounded pickup-point lookup's pieces (audit Y6): the window around a town's centre, the request body,
// and the choice of the listed point nearest the centre.
import { describe, expect, it } from 'vitest';
import {
  nearestPoint,
  pointListBody,
  pointWindow,
  YANDEX_POINT_WINDOWS_KM,
  type ListedPoint,
} from '../../../../../core/carriers/yandex/points';

describe('Yandex pickup-point window', () => {
  it('is ±halfKm in both directions, a degree of longitude shorter in the north', () => {
    const w = pointWindow(55.754, 37.6204, 1.5);
    expect((w.latitude.to - w.latitude.from) * 111.32).toBeCloseTo(3, 2);
    const lonKm = (w.longitude.to - w.longitude.from) * 111.32 * Math.cos((55.754 * Math.PI) / 180);
    expect(lonKm).toBeCloseTo(3, 2);
    expect(w.latitude.from).toBeLessThan(55.754);
    expect(w.longitude.to).toBeGreaterThan(37.6204);
  });

  it('widens step by step, the first a few km across', () => {
    expect(YANDEX_POINT_WINDOWS_KM[0]).toBeLessThanOrEqual(2);
    expect([...YANDEX_POINT_WINDOWS_KM].sort((a, b) => a - b)).toEqual(YANDEX_POINT_WINDOWS_KM);
  });

  it('the body: geo_id with the window, paid in advance; drop-off points for a source; geo_id alone without coordinates', () => {
    const w = pointWindow(55.7944, 49.1115, 1.5);
    expect(pointListBody('pickup', 43, w)).toEqual({
      geo_id: 43,
      ...w,
      type: 'pickup_point',
      payment_method: 'already_paid',
    });
    expect(pointListBody('dropoff', 43, w)).toMatchObject({
      available_for_dropoff: true,
      latitude: w.latitude,
    });
    expect(pointListBody('pickup', 100_123, null)).toEqual({
      geo_id: 100_123,
      type: 'pickup_point',
      payment_method: 'already_paid',
    });
  });
});

describe('the listed point taken', () => {
  const point = (id: string, lat: number | null, lon: number | null, dropoff?: boolean): ListedPoint => ({
    id,
    lat,
    lon,
    dropoff,
  });
  const centre = { lat: 55.754, lon: 37.6204 };

  it('is the one nearest the centre, whatever Yandex’s order', () => {
    const far = point('far', 55.8, 37.7);
    const near = point('near', 55.755, 37.621);
    const none = point('none', null, null);
    expect(nearestPoint([none, far, near], centre, 'pickup')?.id).toBe('near');
  });

  it('for a source, one taking drop-offs', () => {
    const near = point('near', 55.755, 37.621, false);
    const taking = point('taking', 55.76, 37.63, true);
    expect(nearestPoint([near, taking], centre, 'dropoff')?.id).toBe('taking');
    expect(nearestPoint([near], centre, 'dropoff')).toBeUndefined();
  });

  it('without a centre, the first listed', () => {
    expect(nearestPoint([point('a', 1, 1), point('b', 2, 2)], null, 'pickup')?.id).toBe('a');
  });
});
