import { describe, expect, it } from 'vitest';
import { allCities } from '../../../../../core/carriers/cities/cities';
import {
  cdekCityByCode,
  findCdekCities,
  isKnownPostalCode,
} from '../../../../../core/carriers/simulators/cdek-cities';
import { quoteTariffs, SIM_TARIFFS } from '../../../../../core/carriers/simulators/cdek-tariffs';

describe('CDEK simulator city catalogue', () => {
  it('gives every priced city a unique code, with the documented ones fixed', () => {
    const all = findCdekCities({ city: null, code: null, postalCode: null });
    expect(all.length).toBe(allCities().filter((c) => c.postalCode).length);
    expect(new Set(all.map((c) => c.code)).size).toBe(all.length);
    expect(cdekCityByCode(44)?.city).toBe('Москва');
    expect(cdekCityByCode(137)?.city).toBe('Санкт-Петербург');
    expect(cdekCityByCode(270)?.city).toBe('Новосибирск');
  });

  it('recognises postal codes by their sorting-centre prefix', () => {
    expect(isKnownPostalCode('630099')).toBe(true);
    expect(isKnownPostalCode('000001')).toBe(false);
    expect(isKnownPostalCode('63000')).toBe(false);
  });

  it('finds cities by name case-insensitively, by code and by postal code', () => {
    expect(findCdekCities({ city: 'САНКТ-ПЕТЕРБУРГ', code: null, postalCode: null })[0]?.code).toBe(137);
    expect(findCdekCities({ city: null, code: '270', postalCode: null }).map((c) => c.city)).toEqual([
      'Новосибирск',
    ]);
    expect(findCdekCities({ city: 'Москва', code: '270', postalCode: null })).toEqual([]);
    expect(findCdekCities({ city: null, code: null, postalCode: '101000' })[0]?.code).toBe(44);
  });
});

describe('CDEK simulator tariffs', () => {
  const pkg = [{ weight: 1000, length: 20, width: 20, height: 10 }];

  it('answers roubles with at most two decimals and consistent day ranges', () => {
    const items = quoteTariffs('101000', '630000', pkg);
    expect(items.length).toBe(SIM_TARIFFS.length);
    for (const t of items) {
      expect(Math.round(t.delivery_sum * 100) / 100).toBe(t.delivery_sum);
      expect(t.period_min).toBeLessThanOrEqual(t.period_max);
      if (t.calendar_min !== undefined) {
        expect(t.calendar_min).toBeGreaterThanOrEqual(t.period_min);
        expect(t.calendar_min).toBeLessThanOrEqual(t.calendar_max!);
      }
    }
    expect(items.some((t) => t.calendar_min === undefined)).toBe(true);
  });

  it('offers economy only on long routes and drops tariffs over their limits', () => {
    const near = quoteTariffs('101000', '101500', pkg).map((t) => t.tariff_code);
    expect(near).not.toContain(233);
    expect(
      quoteTariffs('101000', '630000', [{ weight: 25_000, length: 80, width: 20, height: 20 }]).map(
        (t) => t.tariff_code,
      ),
    ).not.toContain(368);
    expect(quoteTariffs('101000', '630000', [{ weight: 50_001 }])).toEqual([]);
  });
});
