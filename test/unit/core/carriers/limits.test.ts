import { describe, expect, it } from 'vitest';
import { CDEK_LIMITS } from '../../../../core/carriers/cdek/limits';
import {
  exceededLimits,
  exceededShipmentLimits,
  fitsService,
  fitsServiceShipment,
} from '../../../../core/carriers/limits';
import { RUSSIAN_POST_LIMITS } from '../../../../core/carriers/russian-post/limits';

const parcel = (weight_grams: number, l: number, w: number, h: number) => ({
  weight_grams,
  length_cm: l,
  width_cm: w,
  height_cm: h,
});
const PALLET = parcel(900_000, 300, 300, 300);

describe('exceededLimits', () => {
  it('names every limit a parcel is over, in the words of the /v1 reason', () => {
    expect(exceededLimits(RUSSIAN_POST_LIMITS, PALLET)).toEqual([
      'weight 900 kg over 31.5 kg',
      'longest side 300 cm over 150 cm',
      'sum of sides 900 cm over 300 cm',
    ]);
    expect(exceededLimits(RUSSIAN_POST_LIMITS, parcel(1200, 30, 20, 10))).toEqual([]);
  });

  it('measures length plus girth in any orientation', () => {
    const ems = RUSSIAN_POST_LIMITS.services!['7030']!;
    expect(exceededLimits(ems, parcel(1000, 40, 140, 50))).toEqual(['length plus girth 320 cm over 300 cm']);
    expect(exceededLimits(ems, parcel(1000, 100, 50, 50))).toEqual([]);
  });

  it('a limit exactly met is not exceeded', () => {
    expect(exceededLimits(RUSSIAN_POST_LIMITS, parcel(31_500, 150, 100, 50))).toEqual([]);
    expect(exceededLimits(RUSSIAN_POST_LIMITS, parcel(31_501, 150, 100, 51))).toHaveLength(2);
  });
});

describe('exceededShipmentLimits (#21: several places)', () => {
  const box = parcel(1200, 30, 20, 10);
  it('one place reads as before', () => {
    expect(exceededShipmentLimits(RUSSIAN_POST_LIMITS, [PALLET])).toEqual(
      exceededLimits(RUSSIAN_POST_LIMITS, PALLET),
    );
    expect(exceededShipmentLimits(RUSSIAN_POST_LIMITS, [box])).toEqual([]);
  });

  it('checks every place, not only the first, and names the place', () => {
    expect(exceededShipmentLimits(RUSSIAN_POST_LIMITS, [box, parcel(40_000, 30, 20, 10)])).toEqual([
      'place 2: weight 40 kg over 31.5 kg',
    ]);
  });

  it('checks the count of places and the total weight against the shipment limits', () => {
    const limits = { maxWeightGrams: 30_000, maxPlaces: 2, maxShipmentWeightGrams: 50_000 };
    expect(exceededShipmentLimits(limits, [box, box])).toEqual([]);
    expect(exceededShipmentLimits(limits, [box, box, box])).toEqual(['3 places over 2']);
    const heavy = parcel(26_000, 30, 20, 10);
    expect(exceededShipmentLimits(limits, [heavy, heavy])).toEqual(['total weight 52 kg over 50 kg']);
    // Exactly met is not exceeded.
    expect(exceededShipmentLimits(limits, [parcel(25_000, 1, 1, 1), parcel(25_000, 1, 1, 1)])).toEqual([]);
  });

  it("a service's own shipment limits", () => {
    const limits = { maxWeightGrams: 30_000, services: { a: { maxWeightGrams: 30_000, maxPlaces: 1 } } };
    expect(fitsServiceShipment(limits, 'a', [box])).toBe(true);
    expect(fitsServiceShipment(limits, 'a', [box, box])).toBe(false);
    expect(fitsServiceShipment(limits, 'b', [box, box])).toBe(true);
  });
});

describe('published limits the adapters declare', () => {
  it('Russian Post: 31.5 kg, 150 cm a side, 300 cm in all; each product its own weight', () => {
    expect(RUSSIAN_POST_LIMITS).toMatchObject({
      maxWeightGrams: 31_500,
      maxLengthCm: 150,
      maxSumOfSidesCm: 300,
    });
    const weights = Object.fromEntries(
      Object.entries(RUSSIAN_POST_LIMITS.services!).map(([code, l]) => [code, l.maxWeightGrams]),
    );
    expect(weights).toEqual({
      27030: 10_000,
      27020: 10_000,
      27040: 10_000,
      47030: 5_000,
      47020: 5_000,
      47040: 5_000,
      23030: 20_000,
      23020: 20_000,
      23040: 20_000,
      24030: 31_500,
      24020: 31_500,
      24040: 31_500,
      7030: 31_500,
      7020: 31_500,
      7040: 31_500,
    });
    // The envelope covers every product: no product takes a parcel the envelope refuses.
    for (const limits of Object.values(RUSSIAN_POST_LIMITS.services!)) {
      expect(limits.maxWeightGrams).toBeLessThanOrEqual(RUSSIAN_POST_LIMITS.maxWeightGrams);
    }
    expect(fitsService(RUSSIAN_POST_LIMITS, '47030', parcel(6000, 30, 20, 10))).toBe(false);
    expect(fitsService(RUSSIAN_POST_LIMITS, '23030', parcel(6000, 30, 20, 10))).toBe(true);
  });

  it('CDEK: 30 kg Посылка, 50 kg Экономичная посылка, 20 t Сборный груз as the envelope', () => {
    expect(CDEK_LIMITS.maxWeightGrams).toBe(20_000_000);
    expect(CDEK_LIMITS.services!['368']).toEqual({ maxWeightGrams: 30_000 });
    expect(CDEK_LIMITS.services!['378']).toEqual({ maxWeightGrams: 50_000 });
    expect(CDEK_LIMITS.services!['291']).toEqual({ maxWeightGrams: 500_000 });
    for (const limits of Object.values(CDEK_LIMITS.services!)) {
      expect(limits.maxWeightGrams).toBeLessThanOrEqual(CDEK_LIMITS.maxWeightGrams);
    }
    // The pallet is freight CDEK carries (Сборный груз); no size ceiling is published, none is invented.
    expect(exceededLimits(CDEK_LIMITS, PALLET)).toEqual([]);
    expect(fitsService(CDEK_LIMITS, '136', PALLET)).toBe(false);
    expect(fitsService(CDEK_LIMITS, '751', PALLET)).toBe(true);
    expect(exceededLimits(CDEK_LIMITS, parcel(20_000_001, 10, 10, 10))).toEqual([
      'weight 20,000.001 kg over 20,000 kg',
    ]);
  });
});
