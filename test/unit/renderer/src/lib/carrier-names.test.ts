// Carrier names follow the UI language (issue #17): one rule, fed by the core's carrier list.
import { describe, expect, it } from 'vitest';
import { carrierNamer, displayName, namedIn } from '../../../../../renderer/src/lib/carrier-names';

const LIST = [
  { code: 'cdek', name: 'СДЭК', name_en: 'CDEK' },
  { code: 'russian-post', name: 'Почта России', name_en: 'Russian Post' },
  { code: 'pek', name: 'ПЭК', name_en: 'PEK' },
  { code: 'dellin', name: 'Деловые Линии', name_en: 'Dellin' },
  { code: 'yandex', name: 'Яндекс Доставка', name_en: 'Yandex Delivery' },
  // A rate card: the admin's one name in both languages.
  { code: 'my-card', name: 'Своя доставка', name_en: 'Своя доставка' },
];

describe('carrier names', () => {
  it('names a built-in carrier in the UI language', () => {
    const en = carrierNamer(LIST, 'en');
    const ru = carrierNamer(LIST, 'ru');
    expect(['cdek', 'russian-post', 'pek', 'dellin', 'yandex'].map((c) => en(c))).toEqual([
      'CDEK',
      'Russian Post',
      'PEK',
      'Dellin',
      'Yandex Delivery',
    ]);
    expect(['cdek', 'russian-post', 'pek', 'dellin', 'yandex'].map((c) => ru(c))).toEqual([
      'СДЭК',
      'Почта России',
      'ПЭК',
      'Деловые Линии',
      'Яндекс Доставка',
    ]);
  });

  it('prefers the list over a row’s stored (Russian) name, and keeps a rate card’s one name', () => {
    const en = carrierNamer(LIST, 'en');
    expect(en('cdek', 'СДЭК')).toBe('CDEK');
    expect(en('my-card', 'Своя доставка')).toBe('Своя доставка');
    expect(carrierNamer(LIST, 'ru')('my-card')).toBe('Своя доставка');
  });

  it('falls back to the stored name for a code it does not know, then to the code', () => {
    const en = carrierNamer(LIST, 'en');
    expect(en('removed-card', 'Старый тариф')).toBe('Старый тариф');
    expect(en('removed-card', '')).toBe('removed-card');
    expect(en('removed-card')).toBe('removed-card');
    expect(carrierNamer([], 'en')('cdek', 'СДЭК')).toBe('СДЭК');
  });

  it('is safe to hand to Array.map (the index is not a stored name)', () => {
    // Typed as a props' `(code: string) => string`, which a namer is assignable to.
    const byCode: (code: string) => string = carrierNamer(LIST, 'en');
    expect(['removed-card', 'cdek'].map(byCode)).toEqual(['removed-card', 'CDEK']);
  });

  it('an English name left empty falls back to the Russian one', () => {
    expect(displayName({ name: 'Новый', name_en: ' ' }, 'en')).toBe('Новый');
    expect(displayName({ name: 'СДЭК', name_en: 'CDEK' }, 'ru')).toBe('СДЭК');
  });

  it('namedIn gives `name` in the UI language and keeps everything else', () => {
    const list = [{ code: 'cdek', name: 'СДЭК', name_en: 'CDEK', enabled: false }];
    expect(namedIn(list, 'en')).toEqual([{ code: 'cdek', name: 'CDEK', name_en: 'CDEK', enabled: false }]);
    expect(namedIn(list, 'ru')[0]!.name).toBe('СДЭК');
  });
});
