// One rule for "the same city name" (#17): the core's table and the desk's city field use the same function.
import { describe, expect, it } from 'vitest';
import { normaliseCityName } from '../../../../core/contract/city-name';
import { normaliseCityName as fromCities } from '../../../../core/locations/cities';

describe('normaliseCityName', () => {
  // The desk's city field no longer compares names itself: it reads the core's verdict (city-match.ts).
  it('is one function for the core’s table and resolver, not a copy', () => {
    expect(fromCities).toBe(normaliseCityName);
  });

  it('ignores case, ё/е, hyphens, runs of spaces and a leading «г.» or «город»', () => {
    expect(normaliseCityName('  Г. Ростов-на-Дону ')).toBe('ростов на дону');
    expect(normaliseCityName('город Орёл')).toBe('орел');
    expect(normaliseCityName('г Москва')).toBe('москва');
    expect(normaliseCityName('Санкт\u00a0—\u00a0Петербург')).toBe('санкт петербург');
  });
});
