// Parsing Dellin's answers on fixtures shaped like Dellin's own (protocols.md §4.4/4.6, DL-ERR's format,
// verified-2026 §4.3–4.4): success with price blocks and mixed-format orderDates, each error form, malformed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combine } from '../../../../../core/carriers/dellin/adapter';
import { calendarDaysBetween, daysOf, readCalculation } from '../../../../../core/carriers/dellin/mapper';

const success = (over: Record<string, unknown> = {}) => ({
  metadata: { status: 200, generated_at: '2026-11-24 10:00:00' },
  data: {
    price: 2450.5,
    priceMinimal: 'auto',
    availableDeliveryTypes: { auto: 2450.5, express: 3900 },
    derival: { terminal: 'Москва', price: 0, contractPrice: false },
    intercity: { price: 2450.5, contractPrice: false, premium: 0, discount: 0 },
    arrival: { price: 0, contractPrice: false },
    insurance: 0,
    orderDates: {
      pickup: '2026-11-24',
      arrivalToOspSender: '2026-11-24',
      derrivalFromOspSender: '2026-11-25',
      arrivalToOspReceiver: '2026-11-29',
      giveoutFromOspReceiver: '2026-11-29 10:00:00',
      giveoutFromOspReceiverMax: '2026-12-01',
      derivalToAddress: '2026-11-30 09:00:00',
    },
    ...over,
  },
});
const errors = (status: number, ...codes: number[]) => ({
  metadata: { status, detail: 'x', generated_at: '2026-11-24 10:00:00' },
  errors: codes.map((code) => ({
    code,
    title: `t${code}`,
    detail: `d${code}`,
    link: 'https://dev.dellin.ru',
    fields: ['cargo'],
  })),
});

describe('Dellin mapper: success', () => {
  it('terminal: total price to exact kopecks, calendar days from the produce date to the give-out dates', () => {
    const r = readCalculation(200, success(), 'terminal', '2026-11-24');
    expect(r).toEqual({
      kind: 'rate',
      rate: expect.objectContaining({
        carrier: 'dellin',
        carrier_name: 'Деловые Линии',
        service_code: 'dellin:auto:terminal',
        delivery_type: 'terminal',
        price_kopecks: 245_050,
        days_min: 5,
        days_max: 7,
      }),
    });
  });

  it('door: days to derivalToAddress; a string price is read decimally', () => {
    const r = readCalculation(200, success({ price: '8.255' }), 'door', '2026-11-24');
    expect(r.kind === 'rate' && r.rate).toMatchObject({
      service_code: 'dellin:auto:door',
      delivery_type: 'door',
      price_kopecks: 826,
      days_min: 6,
      days_max: 6,
    });
  });

  it('no dates → days unknown, price kept; give-out missing → arrival at the receiving terminal', () => {
    expect(daysOf(undefined, 'terminal', '2026-11-24')).toEqual([null, null]);
    expect(daysOf({ arrivalToOspReceiver: '2026-11-28' }, 'terminal', '2026-11-24')).toEqual([4, 4]);
    expect(calendarDaysBetween('2026-11-24', '2026-11-23')).toBeNull();
    const r = readCalculation(200, success({ orderDates: undefined }), 'terminal', '2026-11-24');
    expect(r.kind === 'rate' && [r.rate.price_kopecks, r.rate.days_min]).toEqual([245_050, null]);
  });

  it('a contract price (price null, contractPrice true) is no public price, never 0', () => {
    const r = readCalculation(
      200,
      success({ price: null, intercity: { price: null, contractPrice: true } }),
      'terminal',
      '2026-11-24',
    );
    expect(r).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error', detail: expect.stringContaining('contract price') },
    });
  });
});

describe('Dellin mapper: errors', () => {
  it('180012 (date unavailable) asks for the next day', () => {
    expect(readCalculation(400, errors(400, 180012), 'door', '2026-11-24').kind).toBe('date_unavailable');
  });

  it.each([
    [180003, 'no_service'],
    [180002, 'city_not_found'],
    [130009, 'carrier_error'],
  ])('%i → %s', (code, kind) => {
    expect(readCalculation(400, errors(400, code), 'door', '2026-11-24')).toMatchObject({
      kind: 'failure',
      failure: { kind },
      unknownCodes: [],
    });
  });

  it('an unknown code is a carrier error and is reported for the log', () => {
    expect(readCalculation(400, errors(400, 999_001), 'door', '2026-11-24')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
      unknownCodes: [999_001],
    });
  });

  it('401/403: the appkey was refused', () => {
    expect(readCalculation(401, errors(401, 100_001), 'door', '2026-11-24')).toMatchObject({
      failure: { kind: 'carrier_error', detail: expect.stringContaining('appkey') },
    });
    expect(readCalculation(403, {}, 'door', '2026-11-24')).toMatchObject({
      failure: { kind: 'carrier_error', detail: expect.stringContaining('appkey') },
    });
  });

  it('the older forms {"error":{"description"}} and {"errors":"text"} are carrier errors with their text', () => {
    expect(
      readCalculation(400, { error: { description: 'Неверный запрос' } }, 'door', '2026-11-24'),
    ).toMatchObject({ failure: { kind: 'carrier_error', detail: 'Dellin error: Неверный запрос' } });
    expect(readCalculation(400, { errors: 'Сервис недоступен' }, 'door', '2026-11-24')).toMatchObject({
      failure: { kind: 'carrier_error', detail: 'Dellin error: Сервис недоступен' },
    });
  });
});

describe('Dellin mapper: malformed', () => {
  it.each([
    ['no JSON', 200, undefined],
    ['no data', 200, { metadata: { status: 200 } }],
    ['a price that is not a number', 200, success({ price: 'дорого' })],
    ['a 5xx without errors', 502, { html: true }],
  ])('%s → carrier error', (_what, status, json) => {
    expect(readCalculation(status, json, 'terminal', '2026-11-24')).toMatchObject({
      kind: 'failure',
      failure: { kind: 'carrier_error' },
    });
  });

  it('combining legs: a rate wins; else the first real failure; else no service', () => {
    const rate = readCalculation(200, success(), 'terminal', '2026-11-24');
    const noService = readCalculation(400, errors(400, 180003), 'door', '2026-11-24');
    const broken = readCalculation(200, undefined, 'door', '2026-11-24');
    expect(combine([rate, broken])).toMatchObject({ ok: true });
    expect(combine([noService, broken])).toMatchObject({ ok: false, kind: 'carrier_error' });
    expect(combine([noService])).toMatchObject({ ok: false, kind: 'no_service' });
  });
});

/** A calculator answer of test/fixtures/carriers/dellin (shaped like xylocode's and potapov's models). */
function fixture(name: string): { metadata: { status: number }; data: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as {
    metadata: { status: number };
    data: Record<string, unknown>;
  };
}
const FIXTURES = join(__dirname, '../../../../fixtures/carriers/dellin');

describe('Dellin mapper: door days on the documented answer (DL9)', () => {
  it('auto to the door: no derivalToAddress, so the arrival at the receiving terminal + deliveryTerm', () => {
    for (const name of ['calc-auto-door-xylocode.json', 'calc-auto-door-potapov.json']) {
      const r = readCalculation(200, fixture(name), 'door', '2026-11-24');
      // arrivalToOspReceiver 2026-11-28 + deliveryTerm 1 = 2026-11-29: five calendar days.
      expect(r.kind === 'rate' && [r.rate.price_kopecks, r.rate.days_min, r.rate.days_max], name).toEqual([
        283_050, 5, 5,
      ]);
    }
  });

  it('auto without deliveryTerm: the day the cargo leaves the receiving terminal, in either spelling', () => {
    for (const name of ['calc-auto-door-xylocode.json', 'calc-auto-door-potapov.json']) {
      const body = fixture(name);
      delete body.data.deliveryTerm;
      const dates = body.data.orderDates as Record<string, unknown>;
      dates.arrivalToOspReceiver = undefined;
      const r = readCalculation(200, body, 'door', '2026-11-24');
      expect(r.kind === 'rate' && [r.rate.days_min, r.rate.days_max], name).toEqual([5, 5]);
    }
  });

  it('avia to the door: derrivalToAddress … derivalToAddressMax, as xylocode spells them', () => {
    const r = readCalculation(200, fixture('calc-avia-door.json'), 'door', '2026-11-24');
    expect(r.kind === 'rate' && [r.rate.days_min, r.rate.days_max]).toEqual([2, 3]);
    expect(
      daysOf(
        { derivalToAddress: '2026-11-26 09:00:00', derrivalToAddressMax: '2026-11-28 18:00:00' },
        'door',
        '2026-11-24',
      ),
    ).toEqual([2, 4]);
  });

  it('auto to the terminal: the give-out dates; the door fields never leak into it', () => {
    const r = readCalculation(200, fixture('calc-auto-terminal.json'), 'terminal', '2026-11-24');
    expect(r.kind === 'rate' && [r.rate.price_kopecks, r.rate.days_min, r.rate.days_max]).toEqual([
      184_050, 4, 5,
    ]);
  });
});

describe('Dellin mapper: the HTTP status travels with a failure (the adapter weighs the door leg by it)', () => {
  it.each([
    ['error-180002-address.json', 400, 'city_not_found'],
    ['error-unknown-validation.json', 400, 'carrier_error'],
    ['error-180003.json', 400, 'no_service'],
    ['error-500.json', 500, 'carrier_error'],
    ['error-appkey-400.json', 400, 'carrier_error'],
  ])('%s → HTTP %i, %s', (name, status, kind) => {
    expect(readCalculation(status, fixture(name), 'door', '2026-11-24')).toMatchObject({
      kind: 'failure',
      failure: { kind },
      httpStatus: status,
    });
  });
});

describe('Dellin mapper: a fault is Dellin’s or the account’s, never one leg’s data', () => {
  it.each([
    ['error-180002-address.json', 400, false],
    ['error-unknown-validation.json', 400, false],
    ['error-500.json', 500, true],
    ['error-appkey-400.json', 400, true],
    ['error-unknown-validation.json', 429, true],
  ])('%s with HTTP %i → fault %s', (name, status, fault) => {
    expect(readCalculation(status, fixture(name), 'door', '2026-11-24')).toMatchObject({ fault });
  });

  it('an error naming the appkey field is the appkey refused, whatever the status (DL10)', () => {
    expect(readCalculation(400, fixture('error-appkey-400.json'), 'door', '2026-11-24')).toMatchObject({
      failure: { kind: 'carrier_error', detail: expect.stringContaining('rejected the appkey') },
    });
  });
});
