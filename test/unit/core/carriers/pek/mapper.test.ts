// calculateprice answers shaped like PEK's own (PK-GL models, verified-2026.md §5.3–5.4): success, each error
// form (inside HTTP 200, validation 400, 403, 5xx, root hasError, per-product hasError) and malformed bodies.
import { describe, expect, it } from 'vitest';
import { parseTermString, readCalculate } from '../../../../../core/carriers/pek/mapper';

const OK = {
  hasError: false,
  errorMessage: null,
  currencyCode: '643',
  branchSender: 'Москва',
  branchReceiver: 'Новосибирск',
  transfers: [
    {
      type: 3,
      hasError: false,
      errorMessage: null,
      costTotal: 2145.5,
      estDeliveryTime: 8,
      services: [{ serviceType: 'transporting', cost: 1525.5, info: 'LTL Авто', services: [] }],
    },
    { type: 1, hasError: true, errorMessage: 'Превышен максимальный вес', costTotal: null },
  ],
  commonTerms: [{ type: 3, transporting: ['5 – 6'], transportingWithDelivery: ['6 – 8'] }],
  transportingTimes: [],
};

describe('PEK mapper', () => {
  it('reads costTotal (roubles → kopecks exactly) and estDeliveryTime; skips refused products', () => {
    const r = readCalculate(200, OK, 'terminal');
    expect(r.outcome).toEqual({
      ok: true,
      rates: [
        {
          carrier: 'pek',
          carrier_name: 'ПЭК',
          service_code: 'pek:3:terminal',
          service_name: 'LTL Авто, до терминала',
          delivery_type: 'terminal',
          price_kopecks: 214550,
          currency: 'RUB',
          days_min: 8,
          days_max: 8,
          price_type: 'public',
        },
      ],
    });
  });

  it('costTotal as a string; days from commonTerms when estDeliveryTime is missing', () => {
    const body = {
      ...OK,
      transfers: [{ type: 3, hasError: false, costTotal: '8.255' }],
    };
    const door = readCalculate(200, body, 'door').outcome;
    expect(door.ok && door.rates[0]).toMatchObject({
      price_kopecks: 826,
      days_min: 6,
      days_max: 8,
      delivery_type: 'door',
    });
    const terminal = readCalculate(200, body, 'terminal').outcome;
    expect(terminal.ok && terminal.rates[0]).toMatchObject({ days_min: 5, days_max: 6 });
  });

  it("estDeliveryTime is a float in PEK's model: a part day counts whole", () => {
    const r = readCalculate(
      200,
      { transfers: [{ type: 3, costTotal: 5319, estDeliveryTime: 4.5 }] },
      'door',
    ).outcome;
    expect(r.ok && r.rates[0]).toMatchObject({ price_kopecks: 531900, days_min: 5, days_max: 5 });
  });

  it('term strings: "3", "3-4", "3 – 4"', () => {
    expect(parseTermString('3')).toEqual([3, 3]);
    expect(parseTermString('3-4')).toEqual([3, 4]);
    expect(parseTermString('3 – 4')).toEqual([3, 4]);
    expect(parseTermString('—')).toBeNull();
  });

  it('an error inside HTTP 200 is a carrier_error worth logging', () => {
    const r = readCalculate(200, { error: { title: 'Ошибка', message: 'Не найден склад' } }, 'terminal');
    expect(r.outcome).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'PEK error: Ошибка: Не найден склад',
    });
    expect(r.unclassified).toContain('Не найден склад');
  });

  it('validation 400, 403 and 500 bodies', () => {
    const v = readCalculate(
      400,
      {
        error: {
          title: 'Ошибка валидации',
          message: 'Некорректные данные',
          status: 400,
          fields: [{ key: 'types', value: ['Обязательно'] }],
        },
      },
      'terminal',
    );
    expect(v.outcome).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'PEK validation error: Ошибка валидации: Некорректные данные: fields: types',
    });
    expect(
      readCalculate(403, { error: { title: 'Forbidden', message: 'Доступ запрещен' } }, 'door').outcome,
    ).toMatchObject({
      kind: 'carrier_error',
      detail: 'PEK rejected the credentials (HTTP 403): Forbidden: Доступ запрещен',
    });
    expect(readCalculate(502, undefined, 'door').outcome).toMatchObject({
      kind: 'carrier_error',
      detail: 'PEK HTTP 502',
    });
  });

  it('root hasError is a carrier_error; every product refusing is no_service', () => {
    expect(
      readCalculate(200, { hasError: true, errorMessage: 'Сбой расчета' }, 'terminal').outcome,
    ).toMatchObject({
      kind: 'carrier_error',
      detail: 'PEK error: Сбой расчета',
    });
    const none = readCalculate(
      200,
      { hasError: false, transfers: [{ type: 3, hasError: true, errorMessage: 'Нет доставки' }] },
      'terminal',
    );
    expect(none.outcome).toEqual({ ok: false, kind: 'no_service', detail: 'Нет доставки' });
    expect(readCalculate(200, { hasError: false, transfers: [] }, 'door').outcome).toMatchObject({
      kind: 'no_service',
    });
  });

  it('malformed: not JSON, no transfers, unreadable products, another currency', () => {
    expect(readCalculate(200, undefined, 'door').outcome).toMatchObject({ kind: 'carrier_error' });
    expect(readCalculate(200, { hasError: false }, 'door').outcome).toMatchObject({ kind: 'carrier_error' });
    expect(readCalculate(200, [1, 2], 'door').outcome).toMatchObject({ kind: 'carrier_error' });
    expect(
      readCalculate(200, { transfers: [{ type: 3, hasError: false, costTotal: 'много' }] }, 'door').outcome,
    ).toMatchObject({ kind: 'carrier_error', detail: 'none of the 1 PEK products could be read' });
    expect(readCalculate(200, { ...OK, currencyCode: '398' }, 'door').outcome).toMatchObject({
      kind: 'carrier_error',
    });
  });
});
