// One rule for "the same city name" (#17): the core's table and the desk's city field use the same function.
import { describe, expect, it } from 'vitest';
import { normaliseCityName } from '../../../../core/contract/city-name';
import { normaliseCityName as fromCities } from '../../../../core/locations/cities';
import { normaliseCity } from '../../../../renderer/src/features/quote/city-match';

describe('normaliseCityName', () => {
  it('is one function for the core and the renderer, not a copy', () => {
    expect(fromCities).toBe(normaliseCityName);
    expect(normaliseCity).toBe(normaliseCityName);
  });

  it('ignores case, ё/е, hyphens, runs of spaces and a leading «г.» or «город»', () => {
    expect(normaliseCityName('  Г. Ростов-на-Дону ')).toBe('ростов на дону');
    expect(normaliseCityName('город Орёл')).toBe('орел');
    expect(normaliseCityName('г Москва')).toBe('москва');
    expect(normaliseCityName('Санкт\u00a0—\u00a0Петербург')).toBe('санкт петербург');
  });
});
