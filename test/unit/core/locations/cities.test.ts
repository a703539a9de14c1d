import { describe, expect, it } from 'vitest';
import { CITY_ROWS } from '../../../../core/locations/cities-data';
import {
  allCities,
  citiesByPostalCode,
  cityByFiasId,
  findCity,
  mainPostalCode,
  normaliseCityName,
} from '../../../../core/locations/cities';
import { findCities, searchCities } from '../../../../core/locations/city-search';
import { officialRegionName } from '../../../../core/locations/region-names';

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

describe('cityByFiasId', () => {
  it('finds a city by its FIAS GUID in any case, namesakes apart; null for any other code', () => {
    expect(cityByFiasId('93b3df57-4c89-44df-ac42-96f05e9cd3b9')?.name).toBe('Казань');
    expect(cityByFiasId(' 7C875AC0-5C75-4798-8786-564CCB5BD9F2 ')).toMatchObject({
      name: 'Киров',
      region: 'Калужская область',
    });
    expect(cityByFiasId('452a2ddf-88a1-4e35-8d8d-8635493768d4')?.region).toBe('Кировская область');
    expect(cityByFiasId('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('has one city per FIAS GUID', () => {
    expect(new Set(allCities().map((c) => c.fiasId.toLowerCase())).size).toBe(allCities().length);
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
      kladrId: '7700000000000',
      fiasId: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
    });
  });
});

describe('coverage (#10): every Russian town with city status', () => {
  it('has at least 1,100 towns, each with a region, coordinates, KLADR and FIAS', () => {
    const all = allCities();
    expect(all.length).toBeGreaterThanOrEqual(1100);
    for (const c of all) {
      expect(c.region, c.name).not.toBe('');
      expect(Number.isFinite(c.lat) && Number.isFinite(c.lon), c.name).toBe(true);
      expect(c.kladrId, c.name).toMatch(/^\d{13}$/);
      expect(c.fiasId, c.name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    // All but one have their main postal index (the source has none for Аргун).
    expect(all.filter((c) => c.postalCode === null).map((c) => c.name)).toEqual(['Аргун']);
    // Towns that got city status lately are there too.
    for (const name of ['Иннополис', 'Мурино', 'Кудрово']) expect(findCity(name)?.name).toBe(name);
  });

  it('answers which cities a main postal code belongs to (the simulators’ directory)', () => {
    expect(citiesByPostalCode('101000').map((c) => c.name)).toEqual(['Москва']);
    expect(citiesByPostalCode(' 420000 ').map((c) => c.name)).toEqual(['Казань']);
    // An index near a main one is not a main index.
    expect(citiesByPostalCode('101001')).toEqual([]);
    expect(citiesByPostalCode('999999')).toEqual([]);
  });
});

describe('what people type (#9, #10)', () => {
  it.each([
    ['спб', 'Санкт-Петербург'],
    ['СПб', 'Санкт-Петербург'],
    ['СПБ', 'Санкт-Петербург'],
    ['Питер', 'Санкт-Петербург'],
    ['мск', 'Москва'],
    ['МСК', 'Москва'],
    ['екб', 'Екатеринбург'],
    ['нск', 'Новосибирск'],
    ['Moscow', 'Москва'],
    ['Saint Petersburg', 'Санкт-Петербург'],
    ['Saint-Petersburg', 'Санкт-Петербург'],
    ['St. Petersburg', 'Санкт-Петербург'],
    ['St.Petersburg', 'Санкт-Петербург'],
    ['St Petersburg', 'Санкт-Петербург'],
    ['Yekaterinburg', 'Екатеринбург'],
    ['Ekaterinburg', 'Екатеринбург'],
    ['Nizhny Novgorod', 'Нижний Новгород'],
    ['Nizhniy Novgorod', 'Нижний Новгород'],
    ['Н. Новгород', 'Нижний Новгород'],
    ['Н.Новгород', 'Нижний Новгород'],
  ])('%s is %s, for suggestions and for the postal-code lookup', (typed, city) => {
    expect(findCities(typed, 3)[0]).toMatchObject({ city: { name: city }, match: 'alias' });
    expect(findCity(typed)?.name).toBe(city);
  });

  it.each([
    ['г. Москва', 'Москва', '101000'],
    ['г Москва', 'Москва', '101000'],
    ['город Москва', 'Москва', '101000'],
    ['Санкт Петербург', 'Санкт-Петербург', '190000'],
    ['Королёв', 'Королёв', '141060'],
    ['Королев', 'Королёв', '141060'],
    ['Орел', 'Орёл', '302000'],
    ['ЩЁЛКОВО', 'Щёлково', expect.stringMatching(/^\d{6}$/)],
  ])('%s is %s (prefixes, case, ё/е)', (typed, city, postal) => {
    expect(findCity(typed)).toMatchObject({ name: city, postalCode: postal });
  });

  it('an alias does not hide a city of that very name: a region or postal hint still picks it', () => {
    // «Ростов» is Ростов-на-Дону to most people, but Ростов (Ярославская обл) exists.
    expect(findCity('Ростов')?.name).toBe('Ростов-на-Дону');
    expect(findCity('Ростов, Ярославская обл')).toMatchObject({ name: 'Ростов', postalCode: '152150' });
    expect(findCity('Ростов', '152150')?.name).toBe('Ростов');
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
