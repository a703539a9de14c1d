import { describe, expect, it } from 'vitest';
import * as catalogues from '../../../../../renderer/src/i18n/catalogues';
import { plural, render, type Catalogue } from '../../../../../renderer/src/i18n/define';

describe('message catalogues', () => {
  it('every registered catalogue has the same keys in Russian and English, none blank', () => {
    const all = catalogues as unknown as Record<string, Catalogue>;
    expect(Object.keys(all).length).toBeGreaterThanOrEqual(3);
    for (const [ns, cat] of Object.entries(all)) {
      expect(Object.keys(cat.en).sort(), `${ns}: en keys`).toEqual(Object.keys(cat.ru).sort());
      for (const lang of ['ru', 'en'] as const) {
        for (const [key, message] of Object.entries(cat[lang])) {
          const text = render(message, {
            account: 'a',
            balance: '5',
            count: 5,
            shown: 1,
            total: 2,
            n: 1,
            id: 1,
            name: 'x',
            text: 't',
            from: 'A',
            to: 'B',
            time: '1 s',
            ms: 1,
            amount: '1 ₽',
            detail: 'd',
            date: 'd',
            weight: 'w',
            l: 1,
            w: 1,
            h: 1,
            value: 'v',
          });
          expect(text.trim(), `${ns}.${key} (${lang})`).not.toBe('');
        }
      }
    }
  });

  it('Russian catalogues are Russian (Cyrillic in most messages)', () => {
    const { common, quote, history } = catalogues as unknown as Record<string, Catalogue>;
    for (const cat of [common!, quote!, history!]) {
      const texts = Object.values(cat.ru).filter((m): m is string => typeof m === 'string');
      const cyrillic = texts.filter((t) => /[а-яё]/i.test(t)).length;
      expect(cyrillic / texts.length).toBeGreaterThan(0.8);
    }
  });

  it('renders placeholders and Russian plurals', () => {
    expect(render('Осталось {n} из {total}', { n: 3, total: 10 })).toBe('Осталось 3 из 10');
    expect(render('Нет {missing}', {})).toBe('Нет {missing}');
    const forms = { one: 'запрос', few: 'запроса', many: 'запросов', other: 'запроса' };
    expect([1, 2, 5, 11, 21, 22, 25].map((n) => plural('ru', n, forms))).toEqual([
      'запрос',
      'запроса',
      'запросов',
      'запросов',
      'запрос',
      'запроса',
      'запросов',
    ]);
    expect(plural('en', 1, { one: 'request', other: 'requests' })).toBe('request');
  });
});
