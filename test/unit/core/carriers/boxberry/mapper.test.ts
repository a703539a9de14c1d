import { describe, expect, it } from 'vitest';
import { boxberryErrorText, classifyBoxberryError } from '../../../../../core/carriers/boxberry/errors';
import { matchCity } from '../../../../../core/carriers/boxberry/locations';
import {
  breakdownOf,
  periodDays,
  readDeliveryCalculation,
} from '../../../../../core/carriers/boxberry/mapper';

// gwinn/boxberry-sdk tests/Response/deliveryCalculation.json, as protocols.md §3.4 quotes it.
const FIXTURE = {
  error: false,
  result: {
    DeliveryCosts: [
      { PriceService: 166.5, TotalPrice: 481.5, PriceBase: 315, DeliveryTypeId: 1, DeliveryPeriod: 3 },
      { PriceService: 166.5, TotalPrice: 621.5, PriceBase: 455, DeliveryTypeId: 2, DeliveryPeriod: 4 },
    ],
  },
};

describe('readDeliveryCalculation', () => {
  it('maps the asked type of the SDK fixture to a rate in exact kopecks', () => {
    expect(readDeliveryCalculation(200, FIXTURE, 1)).toEqual({
      ok: true,
      rate: {
        carrier: 'boxberry',
        carrier_name: 'Boxberry',
        service_code: 'boxberry:1',
        service_name: 'До пункта выдачи',
        delivery_type: 'pickup_point',
        price_kopecks: 48150,
        currency: 'RUB',
        days_min: 3,
        days_max: 5,
        price_type: 'public',
        // No option asked: PriceService is none of the clerk's options, so it counts as carriage.
        breakdown: { base_kopecks: 48150, insurance_kopecks: 0, cod_fee_kopecks: 0 },
      },
    });
    const courier = readDeliveryCalculation(200, FIXTURE, 2);
    expect(courier).toMatchObject({
      ok: true,
      rate: { service_code: 'boxberry:2', delivery_type: 'door', price_kopecks: 62150 },
    });
  });

  it('#21: PriceService is the fee of the one option asked; with both, only their sum is known', () => {
    // The gwinn fixture: PriceBase 315, PriceService 166.5, TotalPrice 481.5.
    const insured = readDeliveryCalculation(200, FIXTURE, 1, {
      declaredValueKopecks: 300_000,
      codKopecks: 0,
    });
    expect(insured).toMatchObject({
      rate: {
        price_kopecks: 48150,
        breakdown: { base_kopecks: 31500, insurance_kopecks: 16650, cod_fee_kopecks: 0 },
      },
    });
    const cod = readDeliveryCalculation(200, FIXTURE, 1, { declaredValueKopecks: 0, codKopecks: 300_000 });
    expect(cod).toMatchObject({
      rate: { breakdown: { base_kopecks: 31500, insurance_kopecks: 0, cod_fee_kopecks: 16650 } },
    });
    const both = readDeliveryCalculation(200, FIXTURE, 1, {
      declaredValueKopecks: 300_000,
      codKopecks: 300_000,
    });
    expect(both).toMatchObject({
      rate: { breakdown: { base_kopecks: 31500, insurance_kopecks: null, cod_fee_kopecks: null } },
    });
    expect(breakdownOf(100, 90, { declaredValueKopecks: 1, codKopecks: 0 })).toMatchObject({
      base_kopecks: null,
      insurance_kopecks: null,
    });
  });

  it('accepts numbers sent as strings and three decimals (8.253 ₽ → 825)', () => {
    const answer = {
      result: {
        DeliveryCosts: [{ DeliveryTypeId: '1', TotalPrice: '8.255', PriceBase: '8', DeliveryPeriod: '2' }],
      },
    };
    expect(readDeliveryCalculation(200, answer, 1)).toMatchObject({
      ok: true,
      rate: { price_kopecks: 826, days_min: 2 },
    });
  });

  it('a missing type or PriceBase 0 is no_service (the official plugin rule)', () => {
    expect(readDeliveryCalculation(200, { error: false, result: { DeliveryCosts: [] } }, 1)).toMatchObject({
      ok: false,
      failure: { kind: 'no_service' },
    });
    const zero = {
      error: false,
      result: { DeliveryCosts: [{ ...FIXTURE.result.DeliveryCosts[0], PriceBase: 0 }] },
    };
    expect(readDeliveryCalculation(200, zero, 1)).toMatchObject({
      ok: false,
      failure: { kind: 'no_service' },
    });
  });

  it.each([
    ['{"err":"…"}', { err: 'Не найден город получателя' }],
    ['[{"err":"…"}]', [{ err: 'Не найден город получателя' }]],
    ['{"error":true,"message":"…"}', { error: true, message: 'Не найден город получателя' }],
    ['{"err":true,"message":"…"}', { err: true, message: 'Не найден город получателя' }],
  ])('reads the error form %s', (_form, json) => {
    expect(readDeliveryCalculation(200, json, 1)).toEqual({
      ok: false,
      failure: { kind: 'city_not_found', detail: 'Не найден город получателя' },
    });
  });

  it.each([
    ['a non-200 status', 502, FIXTURE],
    ['no result', 200, { error: false }],
    ['DeliveryCosts not a list', 200, { result: { DeliveryCosts: {} } }],
    ['not JSON', 200, undefined],
    [
      'an unreadable price',
      200,
      {
        result: {
          DeliveryCosts: [{ DeliveryTypeId: 1, TotalPrice: '1e3', PriceBase: 5, DeliveryPeriod: 1 }],
        },
      },
    ],
    [
      'a negative period',
      200,
      { result: { DeliveryCosts: [{ DeliveryTypeId: 1, TotalPrice: 5, PriceBase: 5, DeliveryPeriod: -1 }] } },
    ],
  ])('%s is a carrier_error', (_name, status, json) => {
    expect(readDeliveryCalculation(status, json, 1)).toMatchObject({
      ok: false,
      failure: { kind: 'carrier_error' },
    });
  });

  it('reports an error text it does not know, so the adapter can log it', () => {
    expect(readDeliveryCalculation(200, { err: 'Совсем новая ошибка' }, 1)).toMatchObject({
      ok: false,
      unknownText: 'Совсем новая ошибка',
    });
    const known = readDeliveryCalculation(
      200,
      { err: true, message: 'Длина, Ширина, Высота и Вес каждого места в заказе должны быть целыми числами' },
      1,
    );
    expect(known).not.toHaveProperty('unknownText');
  });
});

describe('Boxberry error texts', () => {
  it('finds the text in every form and nothing in a success', () => {
    expect(boxberryErrorText({ err: 'a' })).toBe('a');
    expect(boxberryErrorText([{ err: 'b' }])).toBe('b');
    expect(boxberryErrorText({ error: true, message: 'c' })).toBe('c');
    expect(boxberryErrorText({ err: true })).toBe('unspecified error');
    expect(boxberryErrorText(FIXTURE)).toBeUndefined();
    expect(boxberryErrorText([{ Code: '68' }])).toBeUndefined();
  });

  it('sorts texts by meaning', () => {
    expect(classifyBoxberryError('Неверный токен (token)').failure.kind).toBe('carrier_error');
    expect(classifyBoxberryError('Неверный токен (token)').failure).toMatchObject({
      detail: expect.stringMatching(/rejected the token/),
    });
    expect(classifyBoxberryError('Курьерская доставка не осуществляется').failure.kind).toBe('no_service');
    expect(classifyBoxberryError('Не найден город отправителя').failure.kind).toBe('city_not_found');
    expect(classifyBoxberryError('Внутренняя ошибка сервера')).toMatchObject({
      known: true,
      failure: { kind: 'carrier_error' },
    });
  });
});

describe('DeliveryPeriod as working days', () => {
  it('spans the weekends it can cross', () => {
    expect(periodDays(0)).toEqual([0, 0]);
    expect(periodDays(3)).toEqual([3, 5]);
    expect(periodDays(5)).toEqual([5, 7]);
    expect(periodDays(6)).toEqual([6, 10]);
  });
});

describe('matching a place to a Boxberry city', () => {
  const cities = [
    { code: '68', name: 'Москва', region: 'Москва', kladr: '7700000000000' },
    { code: '1', name: 'Киров', region: 'Кировская', kladr: '4300000100000' },
    { code: '2', name: 'Киров', region: 'Калужская', kladr: '' },
    { code: '3', name: 'Кольцово', region: 'Новосибирская', kladr: '' },
  ];

  it('by KLADR when the table knows the town, else by name and region', () => {
    expect(matchCity(cities, { city: 'Москва', region: null, postalCode: null })?.code).toBe('68');
    expect(matchCity(cities, { city: 'Киров', region: 'Кировская область', postalCode: null })?.code).toBe(
      '1',
    );
    expect(matchCity(cities, { city: 'Киров', region: 'Калужская обл', postalCode: null })?.code).toBe('2');
    expect(matchCity(cities, { city: 'кольцово', region: null, postalCode: null })?.code).toBe('3');
    expect(matchCity(cities, { city: 'Нигдевск', region: null, postalCode: null })).toBeUndefined();
  });
});
