// points:search end to end: the real service in sandbox mode, each carrier's simulator serving its directory
// in the carrier's protocol, the desk dispatch, the store's point_directories. The filter's promise is checked
// on real answers: a 20 kg box is never offered a point that takes 15 kg.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk, type DeskHarness } from '../desk/harness';

let desk: DeskHarness;
beforeAll(async () => {
  desk = await startDesk({ sandbox: 'on' });
});
afterAll(() => desk.close());

const box = (kg: number, sides: [number, number, number] = [30, 20, 15]) => ({
  weight_grams: kg * 1000,
  length_cm: sides[0],
  width_cm: sides[1],
  height_cm: sides[2],
});

const WITH_DIRECTORY = ['cdek', 'boxberry', 'dpd', '5post', 'yandex'] as const;

describe('points:search in sandbox', () => {
  it.each(WITH_DIRECTORY)(
    '%s: the town’s points nearest first, with the directory’s time',
    async (carrier) => {
      const answer = await desk.ok('points:search', {
        carrier,
        to: { city: 'Казань' },
        places: [box(1)],
      });
      expect(answer.points.length).toBeGreaterThan(0);
      expect(answer.directory_fetched_at).not.toBeNull();
      const distances = answer.points.map((p) => p.distance_km ?? Infinity);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      for (const p of answer.points) expect(p.carrier).toBe(carrier);
    },
  );

  it.each(['cdek', 'boxberry', 'dpd'] as const)(
    '%s: a 20 kg box is never offered a 15 kg point',
    async (carrier) => {
      const light = await desk.ok('points:search', {
        carrier,
        to: { city: 'Казань' },
        places: [box(1)],
        limit: 200,
      });
      const small = light.points.filter((p) => p.max_weight_grams !== null && p.max_weight_grams < 20_000);
      expect(small.length, 'the town has a small point').toBeGreaterThan(0);
      const heavy = await desk.ok('points:search', {
        carrier,
        to: { city: 'Казань' },
        places: [box(20)],
        limit: 200,
      });
      expect(heavy.points.length, 'and one that takes 20 kg').toBeGreaterThan(0);
      for (const p of heavy.points)
        expect(p.max_weight_grams === null || p.max_weight_grams >= 20_000).toBe(true);
      expect(heavy.filtered_out).toBeGreaterThanOrEqual(small.length);
    },
  );

  it('5post: every point takes 15 kg at most (its real cell), so a 20 kg box finds none and says why', async () => {
    const heavy = await desk.ok('points:search', {
      carrier: '5post',
      to: { city: 'Казань' },
      places: [box(20)],
    });
    expect(heavy.points).toEqual([]);
    expect(heavy.filtered_out).toBeGreaterThan(0);
  });

  it('COD and card narrow the list to points that take them', async () => {
    const all = await desk.ok('points:search', {
      carrier: 'cdek',
      to: { city: 'Казань' },
      places: [box(1)],
      limit: 200,
    });
    const cod = await desk.ok('points:search', {
      carrier: 'cdek',
      to: { city: 'Казань' },
      places: [box(1)],
      cod_kopecks: 150_000,
      limit: 200,
    });
    const card = await desk.ok('points:search', {
      carrier: 'cdek',
      to: { city: 'Казань' },
      places: [box(1)],
      card: true,
      limit: 200,
    });
    expect(all.points.some((p) => !p.cod)).toBe(true);
    expect(cod.points.every((p) => p.cod)).toBe(true);
    expect(card.points.every((p) => p.card)).toBe(true);
    expect(cod.points.length).toBeLessThan(all.points.length);
  });

  it('a carrier without a directory is an error, not an empty list', async () => {
    const error = await desk.fail('points:search', {
      carrier: 'russian-post',
      to: { city: 'Казань' },
      places: [box(1)],
    });
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(/no pickup-point directory/);
  });

  it('a carrier that is not enabled is refused', async () => {
    const error = await desk.fail('points:search', {
      carrier: 'nope',
      to: { city: 'Казань' },
      places: [box(1)],
    });
    expect(error.code).toBe('invalid');
  });
});
