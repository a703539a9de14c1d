// The city field's ranking rules (core/locations/city-search.ts), as a table of what clerks type (issue #17).
import { describe, expect, it } from 'vitest';
import {
  allCities,
  citiesByPostalCode,
  citiesOfPostalIndex,
  findCity,
} from '../../../../core/locations/cities';
import { editDistance, findCities, matchName } from '../../../../core/locations/city-search';
import { russianLayoutReading } from '../../../../core/locations/layout';
import { TOWNS_WITHIN_CITIES } from '../../../../core/locations/towns-within';

/** "Name · region · match · confirm" of the first `n` suggestions. */
function top(query: string, n = 2, postalHint?: string): string[] {
  return findCities(query, 8, postalHint)
    .slice(0, n)
    .map((f) => `${f.city.name} · ${f.city.region} · ${f.match} · ${f.confirm ?? '-'}`);
}

describe('ranking: what a clerk types → the suggestions, best first', () => {
  it.each([
    // The case: the Moscow town by its name, the Kaliningrad one 1,200 km away only after it, as a
    // pick that asks first.
    [
      'Зеленоград',
      ['Зеленоград · Москва · exact · -', 'Зеленоградск · Калининградская область · prefix · far'],
    ],
    [
      'зеленоград',
      ['Зеленоград · Москва · exact · -', 'Зеленоградск · Калининградская область · prefix · far'],
    ],
    ['Щербинка', ['Щербинка · Москва · exact · -']],
    ['Коммунарка', ['Коммунарка · Москва · exact · -']],
    ['Колпино', ['Колпино · Санкт-Петербург · exact · -']],
    ['г. Кронштадт', ['Кронштадт · Санкт-Петербург · exact · -']],
    // An exact name beats a prefix even of a bigger town.
    ['Пушкин', ['Пушкин · Санкт-Петербург · exact · -', 'Пушкино · Московская область · prefix · far']],
    ['Казань', ['Казань · Республика Татарстан · exact · -']],
    // Several towns of one name: the bigger first, and either pick asks.
    ['Троицк', ['Троицк · Челябинская область · exact · ambiguous', 'Троицк · Москва · exact · ambiguous']],
    [
      'Киров',
      ['Киров · Кировская область · exact · ambiguous', 'Киров · Калужская область · exact · ambiguous'],
    ],
    [
      'Павловск',
      [
        'Павловск · Воронежская область · exact · ambiguous',
        'Павловск · Санкт-Петербург · exact · ambiguous',
      ],
    ],
    // A short form that is also a town's name is ambiguous too.
    [
      'Ростов',
      [
        'Ростов-на-Дону · Ростовская область · alias · ambiguous',
        'Ростов · Ярославская область · exact · ambiguous',
      ],
    ],
    // A region after a comma settles it.
    ['Троицк, Москва', ['Троицк · Москва · exact · -']],
    ['Киров, Калужская обл', ['Киров · Калужская область · exact · -']],
    // Prefixes: big cities before namesakes and small towns; nothing to confirm when the text names no town.
    ['Зелен', ['Зеленоград · Москва · prefix · -', 'Зеленодольск · Республика Татарстан · prefix · -']],
    ['Моск', ['Москва · Москва · prefix · -', 'Московский · Москва · prefix · -']],
    ['Санкт', ['Санкт-Петербург · Санкт-Петербург · prefix · -']],
    // Short forms and Latin spellings, as before.
    ['спб', ['Санкт-Петербург · Санкт-Петербург · alias · -']],
    ['Moscow', ['Москва · Москва · alias · -', 'Московский · Москва · prefix · far']],
    ['Tver', ['Тверь · Тверская область · prefix · -']],
    // The Latin layout read as Russian.
    ['Rfpfym', ['Казань · Республика Татарстан · alias · -']],
    ['Vjcrdf', ['Москва · Москва · alias · -']],
    ['vjcrdf', ['Москва · Москва · alias · -']],
    ['Cfyrn-Gtnth,ehu', ['Санкт-Петербург · Санкт-Петербург · alias · -']],
    ['Xt,jrcfhs', ['Чебоксары · Чувашская Республика · alias · -']],
    ['[f,fhjdcr', ['Хабаровск · Хабаровский край · alias · -']],
    ['cg,', ['Санкт-Петербург · Санкт-Петербург · alias · -']],
    ['Rfp', ['Казань · Республика Татарстан · prefix · -']],
    // A postal index is its town.
    ['420000', ['Казань · Республика Татарстан · postal · -']],
    ['420111', ['Казань · Республика Татарстан · postal · -']],
    ['420 111', ['Казань · Республика Татарстан · postal · -']],
    ['124460', ['Зеленоград · Москва · postal · -']],
    ['125009', ['Москва · Москва · postal · -']],
    ['196084', ['Санкт-Петербург · Санкт-Петербург · postal · -']],
    ['196605', ['Пушкин · Санкт-Петербург · postal · -']],
    // An index several towns share equally asks which.
    [
      '423100',
      [
        'Набережные Челны · Республика Татарстан · postal · ambiguous',
        'Нижнекамск · Республика Татарстан · postal · ambiguous',
      ],
    ],
    // Nothing starts with the text: the closest names.
    ['Масква', ['Москва · Москва · closest · -']],
    ['Moscov', ['Москва · Москва · closest · -', 'Московский · Москва · prefix · -']],
    ['Кзнь', ['Казань · Республика Татарстан · closest · -']],
  ])('«%s»', (query, expected) => {
    expect(top(query, expected.length)).toEqual(expected);
  });

  it('finds nothing for nothing', () => {
    expect(findCities('', 8)).toEqual([]);
    expect(findCities('   ', 8)).toEqual([]);
    expect(findCities('Москва', 0)).toEqual([]);
    expect(findCities('Щщщщщщщщщщ', 8)).toEqual([]);
    expect(findCities('999999', 8)).toEqual([]);
  });

  it('a postal hint beside the city picks the namesake, and then nothing asks', () => {
    expect(top('Троицк', 2, '108841')).toEqual([
      'Троицк · Москва · exact · -',
      'Троицк · Челябинская область · exact · ambiguous',
    ]);
    expect(top('Троицк', 1, '457100')).toEqual(['Троицк · Челябинская область · exact · -']);
    // A hint that fits neither changes nothing.
    expect(top('Троицк', 1, '300000')).toEqual(['Троицк · Челябинская область · exact · ambiguous']);
  });

  it('honours the limit', () => {
    expect(findCities('К', 7)).toHaveLength(7);
    expect(findCities('Масква', 1)).toHaveLength(1);
  });
});

describe('matchName (recent places of the desk)', () => {
  it.each([
    ['Зеленоград', 'Зеленоград', 'exact'],
    ['Зеленоград', 'Зеленоградск', 'prefix'],
    ['спб', 'Санкт-Петербург', 'alias'],
    ['Rfpfym', 'Казань', 'alias'],
    ['Rfp', 'Казань', 'prefix'],
    ['каз', 'Казань', 'prefix'],
    ['Tver', 'Тверь', 'prefix'],
    ['Москва', 'Казань', null],
  ] as const)('«%s» names «%s»: %s', (query, name, match) => {
    expect(matchName(query, name)).toBe(match);
  });
});

describe('keyboard layout', () => {
  it.each([
    ['Rfpfym', 'казань'],
    ['Vjcrdf', 'москва'],
    ['Cfyrn-Gtnth,ehu', 'санкт-петербург'],
    ['{f,fhjdcr', 'хабаровск'],
    ['Yb;ybq Yjdujhjl', 'нижний новгород'],
    ['`krf', 'ёлка'],
  ])('%s → %s', (typed, russian) => {
    expect(russianLayoutReading(typed)).toBe(russian);
  });

  it('leaves Cyrillic, mixed and letterless text alone', () => {
    expect(russianLayoutReading('Казань')).toBeUndefined();
    expect(russianLayoutReading('Rfpfym Казань')).toBeUndefined();
    expect(russianLayoutReading('420000')).toBeUndefined();
  });
});

describe('towns within Moscow and St Petersburg', () => {
  it('are found by name and index, with the federal city as their region and its KLADR/FIAS', () => {
    const moscow = findCity('Москва')!;
    for (const town of TOWNS_WITHIN_CITIES) {
      const found = findCity(`${town.name}, ${town.within}`)!;
      expect(found, town.name).toMatchObject({
        name: town.name,
        region: town.within,
        postalCode: town.postalCode,
      });
      expect(found.postalCode).toMatch(/^\d{6}$/);
      expect(citiesByPostalCode(town.postalCode).map((c) => c.name)).toContain(town.name);
      expect(found.postalCode!.slice(0, 3)).toMatch(
        town.within === 'Москва' ? /^1(0[1-9]|1\d|2\d)$/ : /^19\d$/,
      );
    }
    expect(findCity('Зеленоград')).toMatchObject({ kladrId: moscow.kladrId, fiasId: moscow.fiasId });
  });

  it('stay out of allCities (the simulators build one place per KLADR code from it)', () => {
    expect(allCities()).toHaveLength(1117);
    expect(allCities().some((c) => c.name === 'Зеленоград')).toBe(false);
  });

  it('do not change the most populous namesake findCity picks', () => {
    expect(findCity('Троицк')?.region).toBe('Челябинская область');
    expect(findCity('Павловск')?.region).toBe('Воронежская область');
    expect(findCity('Зеленогорск')?.region).toBe('Красноярский край');
    expect(findCity('Зеленогорск', '197720')?.region).toBe('Санкт-Петербург');
  });
});

describe('citiesOfPostalIndex', () => {
  it('is confident for a main index, the area centre and a longer shared prefix; not for a tie', () => {
    expect(citiesOfPostalIndex('101000')).toMatchObject({ confident: true, cities: [{ name: 'Москва' }] });
    expect(citiesOfPostalIndex('420111').confident).toBe(true);
    expect(citiesOfPostalIndex('420111').cities.map((c) => c.name)).toEqual(['Казань', 'Иннополис']);
    expect(citiesOfPostalIndex('141407').cities[0]?.name).toBe('Химки');
    expect(citiesOfPostalIndex('108823').confident).toBe(false);
    expect(citiesOfPostalIndex('999999')).toEqual({ cities: [], confident: false });
  });

  it('/v1 reads an index written as the city the same way', () => {
    expect(findCity('420111')?.name).toBe('Казань');
    expect(findCity('Rfpfym')?.name).toBe('Казань');
  });
});

describe('editDistance', () => {
  it.each([
    ['москва', 'москва', 0],
    ['масква', 'москва', 1],
    ['моксва', 'москва', 1],
    ['', 'тула', 4],
    ['кзнь', 'казань', 2],
  ])('%s ~ %s = %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });
});
