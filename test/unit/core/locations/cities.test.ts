import { describe, expect, it } from 'vitest';
import { CITY_ROWS } from '../../../../../core/carriers/cities/cities-data';
import {
  allCities,
  findCities,
  findCity,
  mainPostalCode,
  normaliseCityName,
  searchCities,
} from '../../../../../core/carriers/cities/cities';
import { officialRegionName } from '../../../../../core/carriers/cities/region-names';

describe('city table data', () => {
  it('holds every row of hflabs/city, most populous first', () => {
    expect(CITY_ROWS).toHaveLength(1117);
    for (let i = 1; i < CITY_ROWS.length; i++)
      expect(CITY_ROWS[i - 1]![3]).toBeGreaterThanOrEqual(CITY_ROWS[i]![3]);
  });

  it('has a 6-digit main index for every city but Аргун', () => {
    const withoutIndex = CITY_ROWS.filter((r) => r[2] === null).map((r) => r[0]);
    expect(withoutIndex).toEqual(['Аргун']);
    for (const r of CITY_ROWS) if (r[2] !== null) expect(r[2]).toMatch(/^\d{6}$/);
  });

  it('keeps coordinates inside Russia', () => {
    for (const [, , , , lat, lon] of CITY_ROWS) {
      expect(lat).toBeGreaterThan(41);
      expect(lat).toBeLessThan(71);
      expect(lon).toBeGreaterThan(19);
      expect(lon).toBeLessThan(180);
    }
  });

  it('names the quirky rows as §9 describes', () => {
    const names = new Set(CITY_ROWS.map((r) => r[0]));
    for (const name of [
      'Москва',
      'Санкт-Петербург',
      'Севастополь',
      'Воскресенск',
      'Сергиев Посад',
      'Урус-Мартан',
      'Алупка',
    ]) {
      expect(names.has(name), name).toBe(true);
    }
    // Алупка is not read as a second Ялта.
    expect(CITY_ROWS.filter((r) => r[0] === 'Ялта')).toHaveLength(1);
  });

  it('has the 19 ambiguous names of §9', () => {
    const counts = new Map<string, number>();
    for (const [name] of CITY_ROWS) counts.set(name, (counts.get(name) ?? 0) + 1);
    const ambiguous = [...counts].filter(([, n]) => n > 1);
    expect(ambiguous).toHaveLength(19);
    expect(counts.get('Советск')).toBe(3);
  });
});

describe('normaliseCityName', () => {
  it.each([
    ['  Москва ', 'москва'],
    ['г. Казань', 'казань'],
    ['г Казань', 'казань'],
    ['г.Казань', 'казань'],
    ['город Тула', 'тула'],
    ['Королёв', 'королев'],
    ['Ростов-на-Дону', 'ростов на дону'],
    ['Гусев', 'гусев'],
    ['Нижний   Новгород', 'нижний новгород'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseCityName(input)).toBe(expected);
  });
});

describe('findCity / mainPostalCode', () => {
  it('knows the main indexes of the big cities', () => {
    expect(mainPostalCode('Москва')).toBe('101000');
    expect(mainPostalCode('Санкт-Петербург')).toBe('190000');
    expect(mainPostalCode('Новосибирск')).toBe('630000');
    expect(mainPostalCode('Екатеринбург')).toBe('620000');
    expect(mainPostalCode('Казань')).toBe('420000');
  });

  it('ignores case, ё/е and a leading "г."', () => {
    expect(mainPostalCode('г. Казань')).toBe('420000');
    expect(mainPostalCode('КАЗАНЬ')).toBe('420000');
    expect(mainPostalCode('Королев')).toBe('141060');
    expect(mainPostalCode('королёв')).toBe('141060');
    expect(mainPostalCode('Орел')).toBe('302000');
    expect(mainPostalCode('ростов на дону')).toBe('344000');
  });

  it('returns null for unknown places and for the city without an index', () => {
    expect(findCity('Нигдевск')).toBeNull();
    expect(mainPostalCode('Нигдевск')).toBeNull();
    expect(mainPostalCode('')).toBeNull();
    expect(findCity('Аргун')?.region).toBe('Чеченская Республика'); // #9: official region names
    expect(mainPostalCode('Аргун')).toBeNull();
  });

  it('picks the most populous of an ambiguous name', () => {
    expect(findCity('Киров')).toMatchObject({ region: 'Кировская область', postalCode: '610000' });
    expect(findCity('Железногорск')?.region).toBe('Курская область');
    expect(findCity('Советск')?.region).toBe('Калининградская область');
  });

  it('uses "Name, Region" to choose among same-named cities', () => {
    expect(findCity('Киров, Калужская обл')).toMatchObject({ postalCode: '249440' });
    expect(findCity('Киров, Калужская область')?.postalCode).toBe('249440');
    expect(findCity('Железногорск, Красноярский край')?.postalCode).toBe('662970');
    expect(findCity('Советск, Тульская')?.postalCode).toBe('301205');
    expect(findCity('Мирный, Якутия')?.postalCode).toBe('678170');
    expect(mainPostalCode('Благовещенск, Респ Башкортостан')).toBe('453430');
  });

  it('fails rather than guess when the named region has no such city, ignores a region it does not know', () => {
    expect(findCity('Киров, Татарстан')).toBeNull();
    expect(findCity('Москва, Россия')?.postalCode).toBe('101000');
  });

  it('uses a postal hint to choose among same-named cities', () => {
    expect(findCity('Киров', '249441')?.region).toBe('Калужская область');
    expect(findCity('Советск', '613300')?.region).toBe('Кировская область');
    // A hint sharing fewer than 3 digits with every candidate changes nothing.
    expect(findCity('Киров', '100000')?.region).toBe('Кировская область');
  });
});

describe('searchCities', () => {
  it('matches a prefix in population order', () => {
    const names = searchCities('Ново', 5).map((c) => c.name);
    expect(names).toEqual(['Новосибирск', 'Новокузнецк', 'Новороссийск', 'Новочеркасск', 'Новомосковск']);
  });

  it('normalises the prefix like names', () => {
    expect(searchCities('г. каз', 3).map((c) => c.name)).toEqual(['Казань']);
    expect(searchCities('щелк', 3).map((c) => c.name)).toEqual(['Щёлково', 'Щелкино']);
  });

  it('honours the limit and answers nothing for an empty prefix', () => {
    expect(searchCities('К', 7)).toHaveLength(7);
    expect(searchCities('', 10)).toEqual([]);
    expect(searchCities('   ', 10)).toEqual([]);
    expect(searchCities('Москва', 0)).toEqual([]);
  });

  it('returns every same-named city', () => {
    expect(searchCities('Советск', 10).filter((c) => c.name === 'Советск')).toHaveLength(3);
  });
});

describe('allCities', () => {
  it('exposes the table as City objects', () => {
    const all = allCities();
    expect(all).toHaveLength(1117);
    expect(all[0]).toEqual({
      name: 'Москва',
      region: 'Москва',
      postalCode: '101000',
      population: 11514330,
      lat: 55.754,
      lon: 37.6204,
    });
  });
});

describe('what people type (#9)', () => {
  it.each([
    ['спб', 'Санкт-Петербург'],
    ['СПб', 'Санкт-Петербург'],
    ['Питер', 'Санкт-Петербург'],
    ['екб', 'Екатеринбург'],
    ['мск', 'Москва'],
    ['Moscow', 'Москва'],
    ['Saint Petersburg', 'Санкт-Петербург'],
  ])('%s is %s, for suggestions and for the postal-code lookup', (typed, city) => {
    expect(findCities(typed, 3)[0]).toMatchObject({ city: { name: city }, match: 'alias' });
    expect(findCity(typed)?.name).toBe(city);
  });

  it('reads a Latin spelling as Cyrillic for a prefix', () => {
    expect(findCities('Belgorod', 1)[0]?.city.name).toBe('Белгород');
    expect(findCities('Chelyab', 1)[0]?.city.name).toBe('Челябинск');
  });

  it('an exact name is exact, a start is a prefix', () => {
    expect(findCities('Казань', 1)[0]).toMatchObject({ match: 'exact' });
    expect(findCities('Каза', 1)[0]).toMatchObject({ match: 'prefix' });
  });
});

describe('region names', () => {
  it.each([
    ['Нижегородская обл', 'Нижегородская область'],
    ['Татарстан', 'Республика Татарстан'],
    ['Чеченская Респ', 'Чеченская Республика'],
    ['Ханты-Мансийский Автономный округ - Югра', 'Ханты-Мансийский автономный округ — Югра'],
    ['Ненецкий АО', 'Ненецкий автономный округ'],
    ['Еврейская Аобл', 'Еврейская автономная область'],
    ['Северная Осетия - Алания', 'Республика Северная Осетия — Алания'],
    ['Краснодарский край', 'Краснодарский край'],
    ['Москва', 'Москва'],
  ])('%s → %s', (source, shown) => {
    expect(officialRegionName(source)).toBe(shown);
  });

  it('every region of the table is shown in its full form, and lookups by the short form still work', () => {
    for (const city of allCities())
      expect(city.region, city.name).not.toMatch(/ обл$| АО$| Респ$| Аобл$| - /);
    expect(findCity('Киров, Калужская обл')?.postalCode).toBe('249440');
    expect(findCity('Киров, Калужская область')?.postalCode).toBe('249440');
  });
});
