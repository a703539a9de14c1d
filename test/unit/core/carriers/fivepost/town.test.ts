// Which town a 5Post point is in (audit F5): by `localityFiasCode` first, by its name only as a fallback.
import { describe, expect, it } from 'vitest';
import { townNameKey, townOfPoint } from '../../../../../core/carriers/fivepost/town';

describe('a town’s name without its type word', () => {
  it.each([
    ['Зеленодольск г', 'г', 'зеленодольск'], // the capture
    ['Зеленодольск г', null, 'зеленодольск'],
    ['г. Зеленодольск', null, 'зеленодольск'],
    ['Зеленодольск г.', null, 'зеленодольск'],
    ['пгт Шерегеш', 'пгт', 'шерегеш'],
    ['Шерегеш пгт', null, 'шерегеш'],
    ['пгт. Шерегеш', null, 'шерегеш'],
    ['с Дивноморское', null, 'дивноморское'],
    ['п Солнечный', null, 'солнечный'],
    ['Солнечный п', 'п', 'солнечный'],
    ['ст-ца Каневская', null, 'каневская'],
    ['Ростов-на-Дону г', 'г', 'ростов на дону'],
    ['Магадан', null, 'магадан'], // the guide's example: no type word at all
    ['Санкт-Петербург', 'г', 'санкт петербург'],
  ])('%s (cityType %s) → %s', (name, type, key) => {
    expect(townNameKey(name, type)).toBe(key);
  });

  it('keeps a lone word that happens to be a type', () => {
    expect(townNameKey('Г')).toBe('г');
  });
});

describe('the town of a point', () => {
  it('is the table city of its localityFiasCode, whatever the name says', () => {
    // The captured point: Зеленодольск, Республика Татарстан.
    expect(
      townOfPoint('1E90EC38-0F85-442B-AC1B-CA687FA91D88', 'Зеленодольск г', 'г', 'Татарстан республика'),
    ).toEqual({ key: 'fias:1e90ec38-0f85-442b-ac1b-ca687fa91d88', region: 'Республика Татарстан' });
  });
  it('is its name, and 5Post’s region, when the code is not a table city', () => {
    expect(
      townOfPoint('00000000-0000-4000-8000-000000000000', 'пгт Шерегеш', 'пгт', 'Кемеровская обл'),
    ).toEqual({
      key: 'шерегеш',
      region: 'Кемеровская обл',
    });
    expect(townOfPoint(undefined, 'Казань г', null, undefined)).toEqual({ key: 'казань', region: '' });
  });
});
