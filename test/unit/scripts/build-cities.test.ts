import { describe, expect, it } from 'vitest';
import { cityRowsFromCsv, parseCsv, regionLabel, renderCitiesModule } from '../../../scripts/build-cities';

// Real rows of hflabs/city city.csv (all 24 columns), including its quirks.
const HEADER =
  'address,postal_code,country,federal_district,region_type,region,area_type,area,city_type,city,settlement_type,settlement,kladr_id,fias_id,fias_level,capital_marker,okato,oktmo,tax_office,timezone,geo_lat,geo_lon,population,foundation_year';
const ROWS = [
  'г Москва,101000,Россия,Центральный,г,Москва,,,,,,,7700000000000,0c5b2444-70a0-4932-980c-b4dc0d3f02b5,1,0,45000000000,45000000,7700,UTC+3,55.7540471,37.620405,11514330,1147',
  '"Московская обл, г Воскресенск",140200,Россия,Центральный,обл,Московская,г,Воскресенск,,,,,5004400000000,555e9f1b-627a-4444-b19e-27fb9d67a093,3,0,46410000000,46710000001,5005,UTC+3,55.3071519,38.7027953,91301,1862',
  '"Респ Крым, г Ялта, г Алупка",298676,Россия,Южный,Респ,Крым,,,г,Ялта,г,Алупка,9100000800100,daa6815b-0cf0-44c7-981c-84d72d51f2b1,6,0,35419503000,35729000006,9103,UTC+3,44.4164605,34.0444797,7771,960',
  '"Респ Чеченская, г Аргун",,Россия,Северо-Кавказский,Респ,Чеченская,,,г,Аргун,,,2000000200000,3672454d-2697-4ce1-9666-cc9c744ba5c5,4,0,96402000000,96702000001,2000,UTC+3,43.2916774,45.8723105,29528,1700',
  'г Казань,420000,Россия,Приволжский,Респ,Татарстан,,,г,Казань,,,1600000100000,93b3df57-4c89-44df-ac42-96f05e9cd3b9,4,2,92401000000,92701000001,1600,UTC+3,55.7943584,49.1114975,1216965,1005',
  '"Респ Саха /Якутия/, г Мирный",678170,Россия,Дальневосточный,Респ,Саха /Якутия/,у,Мирнинский,г,Мирный,,,1401700100000,62d403af-d460-4e79-a90b-8b6a351af3b1,4,1,98404000000,98631101001,1436,UTC+9,62.536232,113.9667728,37179,1955',
];

describe('parseCsv', () => {
  it('handles quoted fields with commas, doubled quotes and CRLF', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('regionLabel', () => {
  it.each([
    ['Респ', 'Татарстан', 'Татарстан'],
    ['Респ', 'Чеченская', 'Чеченская Респ'],
    ['обл', 'Московская', 'Московская обл'],
    ['край', 'Краснодарский', 'Краснодарский край'],
    ['АО', 'Ненецкий', 'Ненецкий АО'],
    ['обл', 'Кемеровская область - Кузбасс', 'Кемеровская область - Кузбасс'],
    ['Чувашия', 'Чувашская Республика', 'Чувашская Республика'],
    ['г', 'Москва', 'Москва'],
    ['Респ', 'Саха /Якутия/', 'Саха (Якутия)'],
  ])('%s %s → %s', (type, name, expected) => {
    expect(regionLabel(type, name)).toBe(expected);
  });
});

describe('cityRowsFromCsv', () => {
  const rows = cityRowsFromCsv([HEADER, ...ROWS].join('\n') + '\n');

  it('derives name, region, index, population and rounded coordinates, most populous first', () => {
    expect(rows).toEqual([
      [
        'Москва',
        'Москва',
        '101000',
        11514330,
        55.754,
        37.6204,
        '7700000000000',
        '0c5b2444-70a0-4932-980c-b4dc0d3f02b5',
      ],
      [
        'Казань',
        'Татарстан',
        '420000',
        1216965,
        55.7944,
        49.1115,
        '1600000100000',
        '93b3df57-4c89-44df-ac42-96f05e9cd3b9',
      ],
      [
        'Воскресенск',
        'Московская обл',
        '140200',
        91301,
        55.3072,
        38.7028,
        '5004400000000',
        '555e9f1b-627a-4444-b19e-27fb9d67a093',
      ],
      [
        'Мирный',
        'Саха (Якутия)',
        '678170',
        37179,
        62.5362,
        113.9668,
        '1401700100000',
        '62d403af-d460-4e79-a90b-8b6a351af3b1',
      ],
      [
        'Аргун',
        'Чеченская Респ',
        null,
        29528,
        43.2917,
        45.8723,
        '2000000200000',
        '3672454d-2697-4ce1-9666-cc9c744ba5c5',
      ],
      [
        'Алупка',
        'Крым',
        '298676',
        7771,
        44.4165,
        34.0445,
        '9100000800100',
        'daa6815b-0cf0-44c7-981c-84d72d51f2b1',
      ],
    ]);
  });

  it('rejects a CSV without the columns it needs', () => {
    expect(() => cityRowsFromCsv('address,postal_code\nx,101000\n')).toThrow(/column/);
  });

  it('renders a module with the attribution and the rows', () => {
    const text = renderCitiesModule(rows);
    expect(text).toContain('ae661bffe572880472249097c9b29c42b09650ea');
    expect(text).toContain('CC BY-SA 4.0');
    expect(text).toContain('DaData.ru');
    expect(text).toContain(
      '["Аргун","Чеченская Респ",null,29528,43.2917,45.8723,"2000000200000","3672454d-2697-4ce1-9666-cc9c744ba5c5"],',
    );
  });

  it('rejects a row whose KLADR or FIAS code is malformed', () => {
    const bad = ROWS[4]!.replace('1600000100000', '16000001');
    expect(() => cityRowsFromCsv([HEADER, bad].join('\n'))).toThrow(/kladr_id/);
  });
});
