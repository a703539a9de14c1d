import { describe, expect, it } from 'vitest';
import type { CitySuggestion } from '../../../../../../core/desk/contract';
import {
  candidatePrefixes,
  editDistance,
  isAlias,
  latinToCyrillic,
  normaliseCity,
  rankClosest,
  recognisedCity,
} from '../../../../../../renderer/src/features/quote/city-match';

function city(name: string, region = '', match: CitySuggestion['match'] = 'prefix'): CitySuggestion {
  return { name, region, postal_code: '101000', recent: false, match };
}

const MOSCOW = city('Москва', 'Москва');
const MOSALSK = city('Мосальск', 'Калужская обл');
const MURMANSK = city('Мурманск', 'Мурманская обл');
const KAZAN = city('Казань', 'Татарстан');

describe('recognisedCity', () => {
  it('knows a city by its name, whatever the case, ё, hyphens or a leading "г."', () => {
    expect(recognisedCity('москва', [MOSCOW])).toBe(MOSCOW);
    expect(recognisedCity('г. Москва', [MOSCOW])).toBe(MOSCOW);
    expect(recognisedCity('Москва, Москва', [MOSCOW])).toBe(MOSCOW);
    const orel = city('Орёл', 'Орловская обл');
    expect(recognisedCity('орел', [orel])).toBe(orel);
    expect(recognisedCity('санкт петербург', [city('Санкт-Петербург')])?.name).toBe('Санкт-Петербург');
  });

  it('does not take a prefix or a stranger for the city', () => {
    expect(recognisedCity('Моск', [MOSCOW])).toBeNull();
    // A prefix match from the core is only a suggestion.
    expect(recognisedCity('Moskwa', [city('Москва', 'Москва', 'prefix')])).toBeNull();
    expect(recognisedCity('Масква', [])).toBeNull();
    expect(recognisedCity('', [MOSCOW])).toBeNull();
  });

  it("takes the core's word for an alias once the core marks one", () => {
    const spb = { ...city('Санкт-Петербург'), match: 'alias' } as CitySuggestion;
    expect(recognisedCity('спб', [spb])).toBe(spb);
    expect(isAlias('спб', spb)).toBe(true);
    expect(isAlias('Москва', MOSCOW)).toBe(false);
  });
});

describe('closest matches', () => {
  it('measures edits, a swap of neighbours being one', () => {
    expect(editDistance('масква', 'москва')).toBe(1);
    expect(editDistance('моксва', 'москва')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('казань', 'казань')).toBe(0);
  });

  it('reads Latin spellings in Cyrillic', () => {
    expect(latinToCyrillic('kazan')).toBe('казан');
    expect(latinToCyrillic('moscow')).toBe('москов');
    expect(latinToCyrillic('Yekaterinburg')).toBe('екатеринбург');
    expect(latinToCyrillic('Sankt-Peterburg')).toBe('санкт-петербург');
  });

  it('asks the core for short prefixes of the text and of its Cyrillic reading', () => {
    expect(candidatePrefixes('Масква')).toEqual(['м', 'ма', 'мас', 'маскв']);
    expect(candidatePrefixes('Moscow')).toContain('мос');
    expect(candidatePrefixes('  ')).toEqual([]);
  });

  it('ranks candidates by distance, drops the far ones, keeps each city once', () => {
    expect(rankClosest('Масква', [MURMANSK, MOSALSK, MOSCOW, MOSCOW])).toEqual([MOSCOW]);
    expect(rankClosest('Moscow', [MURMANSK, MOSCOW])).toEqual([MOSCOW]);
    expect(rankClosest('Казнь', [KAZAN, MOSCOW])).toEqual([KAZAN]);
    expect(rankClosest('Питер', [MOSCOW, KAZAN])).toEqual([]);
    expect(rankClosest('Мос', [MOSCOW, MOSALSK], 1)).toHaveLength(1);
  });

  it('normalises like the core', () => {
    expect(normaliseCity('  Г. Ростов-на-Дону ')).toBe('ростов на дону');
  });
});
