// Rate-card headers and delivery types in Russian (#17 item 9): the words of core/contract/ratecard-columns.ts
// are read beside the English ones, problems name the column as the file writes it, and the template the
// dialog offers imports as it is.
import { describe, expect, it } from 'vitest';
import {
  columnOfHeader,
  deliveryTypeOf,
  RATE_CARD_COLUMNS,
  RATE_CARD_RUSSIAN_HEADERS,
} from '../../../../core/contract/ratecard-columns';
import { templateCsv } from '../../../../core/operations/ratecard-template';
import { cityKey } from '../../../../core/ratecards/cities';
import { parseRateCard, parseRateCardFile } from '../../../../core/ratecards/parse';

const options = { cityKey: (name: string) => cityKey(name) };
const parse = (text: string) => parseRateCard(text, options);

describe('Russian headers', () => {
  it('reads a file written with Russian headers and Russian delivery types', () => {
    const text = [
      'Откуда;Куда;Вес до, г;Цена, ₽;Срок от;Срок до;Тип доставки;Услуга',
      'Москва;Санкт-Петербург;1000;350,00;1;2;до двери;Курьер',
      'Москва;*;5000;"1 590,50";2;4;ПВЗ;До пункта выдачи',
      'Москва;*;20000;990;3;5;Терминал;Склад',
      'Москва;*;2000;300;4;8;отделение;Почтой',
    ].join('\n');
    const { rows, problems } = parse(text);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.maxWeightGrams, r.priceKopecks, r.deliveryType, r.serviceName])).toEqual([
      [1000, 35000, 'door', 'Курьер'],
      [5000, 159050, 'pickup_point', 'До пункта выдачи'],
      [20000, 99000, 'terminal', 'Склад'],
      [2000, 30000, 'post_office', 'Почтой'],
    ]);
  });

  it('takes the spellings people write: case, ё, spaces, a final dot, руб. for ₽', () => {
    expect(columnOfHeader('  ВЕС ДО,г ')).toBe('max_weight_grams');
    expect(columnOfHeader('Цена, руб.')).toBe('price_rub');
    expect(columnOfHeader('срок  от')).toBe('days_min');
    expect(columnOfHeader('PRICE_RUB')).toBe('price_rub');
    expect(columnOfHeader('стоимость')).toBeNull();
    expect(deliveryTypeOf('До двери')).toBe('door');
    expect(deliveryTypeOf('пункт выдачи')).toBe('pickup_point');
    expect(deliveryTypeOf('door')).toBe('door');
    expect(deliveryTypeOf('самолёт')).toBeNull();
  });

  it('gives every column at least one Russian header, none of them shared by two columns', () => {
    const seen = new Map<string, string>();
    for (const column of RATE_CARD_COLUMNS) {
      expect(RATE_CARD_RUSSIAN_HEADERS[column].length).toBeGreaterThan(0);
      for (const h of RATE_CARD_RUSSIAN_HEADERS[column]) {
        expect(columnOfHeader(h)).toBe(column);
        expect(seen.get(h)).toBeUndefined();
        seen.set(h, column);
      }
    }
  });

  it('names a bad value by its header as written, and a missing column by its English name', () => {
    const text = ['откуда;куда;вес до, г;цена, ₽;срок от;срок до', 'Москва;*;1000;12,345;1;2'].join('\n');
    expect(parse(text).problems).toEqual([{ line: 1, kind: 'missing_column', column: 'delivery_type' }]);
    const bad = [
      'откуда;куда;вес до, г;цена, ₽;срок от;срок до;тип доставки',
      'Москва;*;1000;12,345;1;2;самолёт',
    ].join('\n');
    expect(parse(bad).problems).toEqual([
      { line: 2, kind: 'bad_price', column: 'price_rub', header: 'цена, ₽', value: '12,345' },
      {
        line: 2,
        kind: 'bad_delivery_type',
        column: 'delivery_type',
        header: 'тип доставки',
        value: 'самолёт',
      },
    ]);
  });

  it('refuses one column named twice, in two languages', () => {
    const text = ['from;to;вес до;max_weight_grams;price_rub;days_min;days_max;delivery_type', 'x'].join(
      '\n',
    );
    expect(parse(text).problems).toEqual([
      { line: 1, kind: 'duplicate_column', column: 'max_weight_grams', header: 'max_weight_grams' },
    ]);
  });
});

describe('the CSV template', () => {
  it('has the Russian header and two example rows that import as they are', () => {
    const csv = templateCsv('ru');
    expect(csv.startsWith('\uFEFFоткуда;куда;вес до, г;цена, ₽;срок от;срок до;тип доставки;')).toBe(true);
    expect(csv.trim().split('\r\n')).toHaveLength(3);
    const { rows, problems } = parseRateCardFile(Buffer.from(csv, 'utf8'), options);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.priceKopecks, r.deliveryType, r.declaredValueBp])).toEqual([
      [35000, 'door', 50],
      [59000, 'pickup_point', 0],
    ]);
  });

  it('is in English for the English UI, and imports as well', () => {
    const csv = templateCsv('en');
    expect(csv).toContain('from;to;max_weight_grams;price_rub;days_min;days_max;delivery_type;');
    expect(parse(csv).problems).toEqual([]);
  });
});
