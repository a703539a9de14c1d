import { describe, expect, it } from 'vitest';
import {
  codVariant,
  declaredValueVariant,
  findObject,
  objectCodesFor,
  parseObjectCodes,
  POST_OBJECTS,
} from '../../../../../core/carriers/russian-post/objects';
import { buildTariffUrl, moscowDateTime, packFor } from '../../../../../core/carriers/russian-post/request';

const parcel = { length_cm: 30, width_cm: 20, height_cm: 10 };

describe('objects', () => {
  it('asks for the plain products without declared value and the "с ОЦ" variants with it', () => {
    expect(objectCodesFor(0).map((o) => o.object)).toEqual([27030, 47030, 23030, 24030, 7030]);
    expect(objectCodesFor(0).every((o) => !o.withDeclaredValue)).toBe(true);
    expect(objectCodesFor(1).map((o) => o.object)).toEqual([27020, 47020, 23020, 24020, 7020]);
    expect(objectCodesFor(1).every((o) => o.withDeclaredValue)).toBe(true);
  });

  it('takes the product list from the setting (#10), today’s five by default', () => {
    expect(parseObjectCodes('27030,47030,23030,24030,7030')).toEqual([27030, 47030, 23030, 24030, 7030]);
    expect(parseObjectCodes(' 4030 , 27030,4030')).toEqual([4030, 27030]);
    expect(parseObjectCodes('')).toEqual([27030, 47030, 23030, 24030, 7030]);
    expect(parseObjectCodes(undefined)).toEqual([27030, 47030, 23030, 24030, 7030]);
    // A product outside our table: its "с ОЦ" variant by Russian Post's …030 → …020 rule, or none at all.
    expect(declaredValueVariant(4030)).toBe(4020);
    expect(declaredValueVariant(3000)).toBeNull();
    expect(objectCodesFor(500, [4030, 3000])).toEqual([
      { object: 4020, withDeclaredValue: true, withCod: false, notOffered: [] },
      // Бандероль has no "с ОЦ" variant: asked without it, and its rate says insurance is not offered.
      { object: 3000, withDeclaredValue: false, withCod: false, notOffered: ['insurance'] },
    ]);
  });

  it('#21: with cash on delivery asks for the "с ОЦ и НП" variants (…040), which carry a declared value too', () => {
    expect(objectCodesFor(0, undefined, 100_000).map((o) => o.object)).toEqual([
      27040, 47040, 23040, 24040, 7040,
    ]);
    expect(objectCodesFor(0, undefined, 100_000).every((o) => o.withCod && o.withDeclaredValue)).toBe(true);
    expect(codVariant(4030)).toBe(4040);
    expect(codVariant(3000)).toBeNull();
    expect(objectCodesFor(500, [4030, 3000], 100)).toEqual([
      { object: 4040, withDeclaredValue: true, withCod: true, notOffered: [] },
      { object: 3000, withDeclaredValue: false, withCod: false, notOffered: ['cod', 'insurance'] },
    ]);
  });

  it('resolves every code of a product', () => {
    expect(findObject(47020)).toEqual({ object: POST_OBJECTS[1], withDeclaredValue: true, withCod: false });
    expect(findObject(47040)).toEqual({ object: POST_OBJECTS[1], withDeclaredValue: true, withCod: true });
    expect(findObject(47030)?.withDeclaredValue).toBe(false);
    expect(findObject(4030)).toBeUndefined();
  });
});

describe('request', () => {
  it('picks the smallest standard box in any orientation, else non-standard', () => {
    expect(packFor({ length_cm: 8, width_cm: 26, height_cm: 17 })).toBe(10);
    expect(packFor(parcel)).toBe(20);
    expect(packFor({ length_cm: 40, width_cm: 27, height_cm: 18 })).toBe(30);
    expect(packFor({ length_cm: 40.2, width_cm: 27, height_cm: 18 })).toBe(40);
    expect(packFor({ length_cm: 120, width_cm: 10, height_cm: 10 })).toBe(99);
  });

  it('formats date and time in Moscow time', () => {
    expect(moscowDateTime(new Date('2025-03-10T07:00:00Z'))).toEqual({ date: '20250310', time: '1000' });
    expect(moscowDateTime(new Date('2025-12-31T22:30:00Z'))).toEqual({ date: '20260101', time: '0130' });
  });

  it('builds the §1.9 URL: bare json flag, integers, size rounded up, errorcode=1', () => {
    const url = buildTariffUrl('https://tariff.pochta.ru/', {
      object: 23030,
      from: '101000',
      to: '630000',
      weightGrams: 1200,
      parcel: { length_cm: 29.1, width_cm: 20, height_cm: 9.5 },
      now: new Date('2025-03-10T07:00:00Z'),
    });
    expect(url).toBe(
      'https://tariff.pochta.ru/v2/calculate/tariff/delivery?json&object=23030&from=101000&to=630000&weight=1200&size=30x20x10&pack=20&date=20250310&time=1000&errorcode=1',
    );
  });

  it('adds sumoc in kopecks only when given', () => {
    const url = buildTariffUrl('http://127.0.0.1:1', {
      object: 27020,
      from: '101000',
      to: '420000',
      weightGrams: 500,
      parcel,
      declaredValueKopecks: 150050,
      now: new Date('2025-03-10T07:00:00Z'),
    });
    expect(new URL(url).searchParams.get('sumoc')).toBe('150050');
  });
});
