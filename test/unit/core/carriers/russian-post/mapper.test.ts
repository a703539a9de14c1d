import { describe, expect, it } from 'vitest';
import { Rate } from '../../../../../core/contract/v1';
import type { CarrierHttpResponse } from '../../../../../core/carriers/http';
import {
  combineResults,
  interpretTariffResponse,
  unknownCodesOf,
  type ObjectResult,
} from '../../../../../core/carriers/russian-post/mapper';
import { isKnownCode, isNoServiceCode } from '../../../../../core/carriers/russian-post/schema';

const json = (status: number, body: unknown): CarrierHttpResponse => ({
  status,
  json: body,
  text: JSON.stringify(body),
});

// The §1.9 fixture (shape of the PochtaSdk README trace).
const OK_BODY = {
  version_api: 2,
  version: '2.14.1.676',
  caption: 'Расчет тарифов, контрольных сроков доставки',
  id: 23030,
  name: 'Посылка онлайн обыкновенная',
  items: [{ id: '9101', name: 'Пересылка посылки онлайн', tariff: { val: 31500, valnds: 37800 } }],
  ground: { val: 31500, valnds: 37800 },
  pay: 31500,
  paynds: 37800,
  ndsrate: 20,
  nds: 6300,
  delivery: { min: 5, max: 7, deadline: '20250317T235900' },
  some_future_field: { anything: true },
};

// A "с ОЦ и НП" answer: carriage in `ground`, the declared-value fee in `cover` (the field lapaygroup/RussianPost
// reads as setCover/setCoverNds), `paynds` their sum with VAT.
const COD_BODY = {
  ...OK_BODY,
  id: 23040,
  name: 'Посылка онлайн с объявленной ценностью и наложенным платежом',
  items: [
    { id: '9101', name: 'Пересылка посылки онлайн', tariff: { val: 31500, valnds: 37800 } },
    { id: '9102', name: 'Плата за объявленную ценность', cover: { val: 4000, valnds: 4800 } },
  ],
  ground: { val: 31500, valnds: 37800 },
  cover: { val: 4000, valnds: 4800 },
  pay: 35500,
  paynds: 42600,
};

describe('#21: fee breakdown from ground and cover', () => {
  it('a "с ОЦ и НП" answer: base from ground, insurance from cover, the COD fee not given (null)', () => {
    const r = interpretTariffResponse(23040, json(200, COD_BODY), { withDeclaredValue: true, withCod: true });
    expect(r).toMatchObject({
      kind: 'rate',
      rate: {
        service_code: 'russian-post:23040',
        price_kopecks: 42600,
        breakdown: { base_kopecks: 37800, insurance_kopecks: 4800, cod_fee_kopecks: null },
      },
    });
  });

  it('a "с ОЦ" answer without cover gives no insurance part (null), never a made-up 0', () => {
    const { cover: _c, ...noCover } = COD_BODY;
    const r = interpretTariffResponse(23020, json(200, { ...noCover, id: 23020 }));
    expect(r).toMatchObject({
      rate: { breakdown: { base_kopecks: 37800, insurance_kopecks: null, cod_fee_kopecks: 0 } },
    });
  });
});

describe('interpretTariffResponse', () => {
  it('maps paynds (kopecks with VAT) to the price and delivery.min/max to days', () => {
    const r = interpretTariffResponse(23030, json(200, OK_BODY));
    if (r.kind === 'rate')
      expect(r.rate.breakdown).toEqual({ base_kopecks: 37800, insurance_kopecks: 0, cod_fee_kopecks: 0 });
    if (r.kind === 'rate') delete r.rate.breakdown;
    expect(r).toEqual({
      kind: 'rate',
      rate: {
        carrier: 'russian-post',
        carrier_name: 'Почта России',
        service_code: 'russian-post:23030',
        service_name: 'Посылка онлайн обыкновенная',
        delivery_type: 'post_office',
        price_kopecks: 37800,
        currency: 'RUB',
        days_min: 5,
        days_max: 7,
        price_type: 'public',
      },
    });
    if (r.kind === 'rate') expect(Rate.safeParse(r.rate).success).toBe(true);
  });

  it('maps courier products to door delivery and falls back to our name when the body has none', () => {
    const { name: _name, ...noName } = OK_BODY;
    const r = interpretTariffResponse(7020, json(200, { ...noName, id: 7020, delivery: undefined }));
    expect(r).toMatchObject({
      kind: 'rate',
      rate: {
        service_code: 'russian-post:7020',
        service_name: 'EMS с объявленной ценностью',
        delivery_type: 'door',
        days_min: null,
        days_max: null,
      },
    });
  });

  it('treats route/weight errors as "no service", with errorcode=1 (400) and errorcode=0 (200)', () => {
    const body = { id: 27030, errors: [{ code: 1378, msg: 'Вес больше допустимого', type: 1 }] };
    expect(interpretTariffResponse(27030, json(400, body))).toEqual({
      kind: 'no_service',
      detail: '1378 Вес больше допустимого',
    });
    expect(interpretTariffResponse(27030, json(200, body))).toMatchObject({ kind: 'no_service' });
  });

  it('treats internal and input errors as carrier errors, even with status 200', () => {
    const internal = interpretTariffResponse(
      27030,
      json(500, { errors: [{ code: 5000, msg: 'Внутренняя ошибка', type: 0 }] }),
    );
    expect(internal).toEqual({ kind: 'error', detail: 'Russian Post error 5000 Внутренняя ошибка' });
    const badInput = interpretTariffResponse(
      27030,
      json(200, { errors: [{ code: 1301, msg: 'Неверное значение', type: 3 }] }),
    );
    expect(badInput.kind).toBe('error');
  });

  it('calls a mix of no-service and other codes an error', () => {
    const r = interpretTariffResponse(
      27030,
      json(400, {
        errors: [
          { code: 1209, msg: 'a' },
          { code: 5999, msg: 'b' },
        ],
      }),
    );
    expect(r.kind).toBe('error');
  });

  it('reports bodies that are not JSON, 5xx without errors[] and unexpected shapes', () => {
    expect(interpretTariffResponse(27030, { status: 200, json: undefined, text: '<html>' })).toMatchObject({
      kind: 'error',
      detail: expect.stringMatching(/not JSON/),
    });
    expect(interpretTariffResponse(27030, json(502, { message: 'Bad gateway' }))).toEqual({
      kind: 'error',
      detail: 'Russian Post answered HTTP 502',
    });
    expect(interpretTariffResponse(27030, json(200, { id: 27030, paynds: '378.00' })).kind).toBe('error');
    expect(interpretTariffResponse(27030, json(200, { id: 27030, paynds: -1 })).kind).toBe('error');
    expect(interpretTariffResponse(27030, json(200, [])).kind).toBe('error');
  });

  it('keeps the detail short', () => {
    const r = interpretTariffResponse(27030, json(400, { errors: [{ code: 5000, msg: 'x'.repeat(1000) }] }));
    expect(r.kind === 'error' && r.detail.length).toBeLessThanOrEqual(160);
  });
});

describe('live fixes (#10), on answers shaped like tariff.pochta.ru’s', () => {
  // ErrorCode.cs (appendix 13 of the calculator PDF) wording; the body shape of lapaygroup/RussianPost#14.
  it.each([
    [1375, 'Доставка не осуществляется'],
    [1376, 'Услуга не оказывается при входном значении "Вес отправления" (weight) 40000'],
    [1379, 'Услуга не оказывается при значении параметра "Тип упаковки" (pack) равным 99'],
    [1450, 'Запрет доставки в определенную точку'],
  ])('%i means "no service", under errorcode=1 and errorcode=0', (code, msg) => {
    const body = { version_api: 2, version: '2.14.1.676', id: 27030, errors: [{ msg, code, type: 1 }] };
    for (const status of [400, 200]) {
      expect(interpretTariffResponse(27030, json(status, body))).toEqual({
        kind: 'no_service',
        detail: `${code} ${msg}`,
      });
    }
  });

  it('keeps the price of an answer whose delivery has no min/max (days unknown)', () => {
    for (const delivery of [
      { deadline: '20250317T235900' },
      {},
      { min: null, max: null, deadline: '20250317T235900' },
      'not an object',
    ]) {
      const r = interpretTariffResponse(23030, json(200, { ...OK_BODY, delivery }));
      expect(r).toMatchObject({
        kind: 'rate',
        rate: { price_kopecks: 37800, days_min: null, days_max: null },
      });
      if (r.kind === 'rate') expect(Rate.safeParse(r.rate).success).toBe(true);
    }
    // One bound alone stands for both; swapped bounds are put in order.
    expect(interpretTariffResponse(23030, json(200, { ...OK_BODY, delivery: { max: 6 } }))).toMatchObject({
      rate: { days_min: 6, days_max: 6 },
    });
    expect(
      interpretTariffResponse(23030, json(200, { ...OK_BODY, delivery: { min: 7, max: 5 } })),
    ).toMatchObject({ rate: { days_min: 5, days_max: 7 } });
  });

  it('names the codes ErrorCode.cs does not list, for the log', () => {
    const body = {
      errors: [
        { code: 1378, msg: 'a' },
        { code: 1999, msg: 'new' },
      ],
    };
    expect(unknownCodesOf(json(400, body))).toEqual([1999]);
    expect(unknownCodesOf(json(200, OK_BODY))).toEqual([]);
    expect(isKnownCode(1450)).toBe(true);
    expect(isKnownCode(2007)).toBe(true);
    expect(isKnownCode(4242)).toBe(false);
  });
});

describe('isNoServiceCode', () => {
  it.each([1202, 1204, 1207, 1209, 1372, 1373, 1375, 1376, 1377, 1378, 1379, 1450, 2001, 2006, 2011])(
    '%i means no service',
    (code) => {
      expect(isNoServiceCode(code)).toBe(true);
    },
  );
  it.each([1101, 1200, 1201, 1203, 1205, 1301, 2000, 2012, 5000, 5999])('%i is an error', (code) => {
    expect(isNoServiceCode(code)).toBe(false);
  });
});

describe('combineResults', () => {
  const rate = (code: number): ObjectResult => {
    const r = interpretTariffResponse(code, json(200, { ...OK_BODY, id: code }));
    if (r.kind !== 'rate') throw new Error('fixture');
    return r;
  };
  const none: ObjectResult = { kind: 'no_service', detail: '1378 too heavy' };
  const error: ObjectResult = { kind: 'error', detail: 'Russian Post error 5000' };

  it('returns the rates when any object gave one', () => {
    const outcome = combineResults([rate(27030), none, error, rate(7030)]);
    expect(outcome.ok && outcome.rates.map((r) => r.service_code)).toEqual([
      'russian-post:27030',
      'russian-post:7030',
    ]);
  });

  it('says no_service only when every object said so', () => {
    expect(combineResults([none, none, { kind: 'no_service', detail: '1209 route' }])).toEqual({
      ok: false,
      kind: 'no_service',
      detail: '1378 too heavy; 1209 route',
    });
    expect(combineResults([none, error])).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'Russian Post error 5000',
    });
  });
});
