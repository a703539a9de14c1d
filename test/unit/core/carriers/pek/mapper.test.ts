// calculateprice answers shaped like PEK's own (PK-GL models, verified-2026.md §5.3–5.4): success, each error
// form (inside HTTP 200, validation 400, 403, 5xx, root hasError, per-product hasError) and malformed bodies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
          // #21: nothing insured, no cash on delivery: the whole price is the base.
          breakdown: { base_kopecks: 214550, insurance_kopecks: 0, cod_fee_kopecks: 0 },
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

/** An answer of test/fixtures/carriers/pek (shaped like glook/pecom-php-sdk's models). */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/carriers/pek', name), 'utf8'));

describe('PEK mapper: root hasError (audit P9)', () => {
  it('with a route message it is "no service", on both legs, not a carrier error to log', () => {
    for (const leg of ['terminal', 'door'] as const) {
      const r = readCalculate(200, fixture('calc-root-haserror-route.json'), leg);
      expect(r).toEqual({
        outcome: {
          ok: false,
          kind: 'no_service',
          detail: 'Нет возможности доставки по указанному направлению',
        },
        unclassified: null,
      });
    }
    expect(
      readCalculate(200, { hasError: true, errorMessage: 'Адрес доставки вне зоны обслуживания' }, 'door')
        .outcome,
    ).toMatchObject({ kind: 'no_service' });
  });

  it('with any other message it stays a carrier error, logged for its wording', () => {
    const r = readCalculate(200, fixture('calc-root-haserror-other.json'), 'terminal');
    expect(r.outcome).toMatchObject({
      kind: 'carrier_error',
      detail: expect.stringContaining('Сбой расчета'),
    });
    expect(r.unclassified).toContain('Сбой расчета');
  });

  it('the documented answer with a priced and a refused product reads as the priced one', () => {
    const r = readCalculate(200, fixture('calc-door-ok.json'), 'door').outcome;
    expect(r.ok && r.rates.map((x) => [x.service_code, x.price_kopecks, x.days_min])).toEqual([
      ['pek:3:door', 214_550, 6],
    ]);
  });
});

describe('PEK mapper: a refused door address is "no door rate" (audit P5)', () => {
  it.each([
    ['error-400-door-address.json', 400],
    ['error-200-door-address.json', 200],
  ])('%s (HTTP %i) on the door leg → no_service', (name, status) => {
    expect(readCalculate(status, fixture(name), 'door')).toEqual({
      outcome: { ok: false, kind: 'no_service', detail: expect.stringMatching(/^no PEK door rate: /) },
      unclassified: null,
    });
  });

  it('the same bodies on the terminal leg, and other logical errors on the door leg, stay carrier errors', () => {
    expect(readCalculate(400, fixture('error-400-door-address.json'), 'terminal').outcome).toMatchObject({
      kind: 'carrier_error',
    });
    expect(readCalculate(200, fixture('error-200-logical.json'), 'door').outcome).toMatchObject({
      kind: 'carrier_error',
      detail: 'PEK error: Ошибка расчета: Не найден склад отправителя',
    });
  });
});

describe('PEK mapper: an error envelope with another status says the status', () => {
  it('429 (PEK’s 100 requests a minute) reads "PEK HTTP 429: …"', () => {
    const body = { error: { title: 'Too Many Requests', message: 'Превышено ограничение', status: 429 } };
    expect(readCalculate(429, body, 'terminal').outcome).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'PEK HTTP 429: Too Many Requests: Превышено ограничение',
    });
  });
});
