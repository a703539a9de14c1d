import { describe, expect, it } from 'vitest';
import { allCities, townsWithinCities } from '../../../../../core/locations/cities';
import {
  cdekCityByCode,
  findCdekCities,
  isKnownPostalCode,
  SETTLEMENTS_BEYOND_THE_TABLE,
} from '../../../../../core/carriers/simulators/cdek-cities';
import { quoteTariffs, SIM_TARIFFS } from '../../../../../core/carriers/simulators/cdek-tariffs';
import { CDEK_LIMITS } from '../../../../../core/carriers/cdek/limits';

describe('CDEK simulator city directory', () => {
  it('gives every priced place a unique code, with the documented ones fixed', () => {
    const all = findCdekCities({ city: null, code: null, postalCode: null });
    expect(all.length).toBe(
      allCities().filter((c) => c.postalCode).length +
        SETTLEMENTS_BEYOND_THE_TABLE.length +
        townsWithinCities().length,
    );
    // #17: the towns within Moscow and St Petersburg are CDEK cities of their own, as in real CDEK.
    expect(findCdekCities({ city: 'Зеленоград', code: null, postalCode: null })).toMatchObject([
      { city: 'Зеленоград', region: 'Москва', mainPostalCode: '124482' },
    ]);
    expect(new Set(all.map((c) => c.code)).size).toBe(all.length);
    expect(cdekCityByCode(44)?.city).toBe('Москва');
    expect(cdekCityByCode(137)?.city).toBe('Санкт-Петербург');
    expect(cdekCityByCode(270)?.city).toBe('Новосибирск');
  });

  it('recognises exactly the main indexes of its places, nothing merely near them (#10)', () => {
    for (const c of allCities()) if (c.postalCode) expect(isKnownPostalCode(c.postalCode), c.name).toBe(true);
    expect(isKnownPostalCode('630559')).toBe(true); // Кольцово, beyond the table
    expect(isKnownPostalCode('630099')).toBe(false);
    expect(isKnownPostalCode('101001')).toBe(false);
    expect(isKnownPostalCode('000001')).toBe(false);
    expect(isKnownPostalCode('63000')).toBe(false);
  });

  it('finds places by name case-insensitively, by code and by postal code', () => {
    expect(findCdekCities({ city: 'САНКТ-ПЕТЕРБУРГ', code: null, postalCode: null })[0]?.code).toBe(137);
    expect(findCdekCities({ city: null, code: '270', postalCode: null }).map((c) => c.city)).toEqual([
      'Новосибирск',
    ]);
    expect(findCdekCities({ city: 'Москва', code: '270', postalCode: null })).toEqual([]);
    expect(findCdekCities({ city: null, code: null, postalCode: '101000' })[0]?.code).toBe(44);
    expect(findCdekCities({ city: 'кольцово', code: null, postalCode: null })).toMatchObject([
      { city: 'Кольцово', region: 'Новосибирская область', mainPostalCode: '630559' },
    ]);
  });
});

describe('CDEK simulator tariffs', () => {
  const pkg = [{ weight: 1000, length: 20, width: 20, height: 10 }];

  it('answers roubles with at most two decimals and consistent day ranges', () => {
    for (const type of [1, 2] as const) {
      const items = quoteTariffs('101000', '630000', pkg, type);
      expect(items.length).toBe(SIM_TARIFFS.filter((t) => t.types.includes(type)).length);
      for (const t of items) {
        expect(Math.round(t.delivery_sum * 100) / 100).toBe(t.delivery_sum);
        expect(t.period_min).toBeLessThanOrEqual(t.period_max);
        if (t.calendar_min !== undefined) {
          expect(t.calendar_min).toBeGreaterThanOrEqual(t.period_min);
          expect(t.calendar_min).toBeLessThanOrEqual(t.calendar_max!);
        }
      }
    }
    expect(quoteTariffs('101000', '630000', pkg).some((t) => t.calendar_min === undefined)).toBe(true);
  });

  it('offers economy only on long routes and drops tariffs over their limits', () => {
    const near = quoteTariffs('101000', '105000', pkg).map((t) => t.tariff_code);
    expect(near).not.toContain(233);
    expect(
      quoteTariffs('101000', '630000', [{ weight: 25_000, length: 80, width: 20, height: 20 }]).map(
        (t) => t.tariff_code,
      ),
    ).not.toContain(368);
    expect(quoteTariffs('101000', '630000', [{ weight: 50_001 }])).toEqual([]);
  });

  it('uses CDEK’s published weight limits, the ones the adapter declares', () => {
    for (const t of SIM_TARIFFS) {
      const published = CDEK_LIMITS.services?.[String(t.code)];
      if (published) expect(t.maxGrams, String(t.code)).toBe(published.maxWeightGrams);
    }
    // Посылка ends at 30 kg, Экономичная посылка at 50 kg.
    const at = (weight: number) => quoteTariffs('101000', '630000', [{ weight }]).map((t) => t.tariff_code);
    expect(at(30_000)).toContain(136);
    expect(at(30_001)).not.toContain(136);
    expect(at(50_000)).toContain(234);
  });

  it('delivery contracts (type 2) carry freight up to 20 t, online-store ones (type 1) do not', () => {
    const pallet = [{ weight: 900_000, length: 120, width: 80, height: 150 }];
    expect(quoteTariffs('101000', '420000', pallet, 1)).toEqual([]);
    expect(
      quoteTariffs('101000', '420000', pallet, 2)
        .map((t) => t.tariff_code)
        .sort(),
    ).toEqual([750, 751]);
    expect(quoteTariffs('101000', '420000', [{ weight: 20_000_001 }], 2)).toEqual([]);
  });
});
