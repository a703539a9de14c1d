// pricing-calculator answers shaped like Yandex's own (verified-2026.md §7.3–7.4): success, no service as 400
// and as 404, rejected token, 429, 5xx, unknown codes, malformed bodies.
import { describe, expect, it } from 'vitest';
import { readPricing } from '../../../../../core/carriers/yandex/mapper';

describe('Yandex mapper', () => {
  it('a price with VAT and one day count', () => {
    expect(
      readPricing(200, { pricing_total: '225.7 RUB', delivery_days: 7 }, 'time_interval').outcome,
    ).toEqual({
      ok: true,
      rates: [
        {
          carrier: 'yandex',
          carrier_name: 'Яндекс Доставка',
          service_code: 'yandex:time_interval',
          service_name: 'Курьером до двери',
          delivery_type: 'door',
          price_kopecks: 22570,
          currency: 'RUB',
          days_min: 7,
          days_max: 7,
          price_type: 'public',
          // #21: prepaid, nothing declared: the whole price is the delivery.
          breakdown: { base_kopecks: 22570, insurance_kopecks: 0, cod_fee_kopecks: 0 },
        },
      ],
    });
    const pvz = readPricing(200, { pricing_total: '99 RUB' }, 'self_pickup').outcome;
    expect(pvz.ok && pvz.rates[0]).toMatchObject({
      delivery_type: 'pickup_point',
      days_min: null,
      price_kopecks: 9900,
    });
  });

  it('no service: 400 no_delivery_options and 404 "No delivery options"', () => {
    expect(
      readPricing(400, { code: 'no_delivery_options', message: 'x' }, 'self_pickup').outcome,
    ).toMatchObject({
      ok: false,
      kind: 'no_service',
    });
    expect(readPricing(404, { message: 'No delivery options' }, 'time_interval').outcome).toMatchObject({
      kind: 'no_service',
    });
  });

  it('faults: 401, 429, 500, a validation error; unknown codes are flagged for the log', () => {
    expect(readPricing(401, { code: 'unauthorized', message: 'Access denied' }, 'time_interval')).toEqual({
      outcome: {
        ok: false,
        kind: 'carrier_error',
        detail: 'Yandex rejected the token (HTTP 401: unauthorized: Access denied)',
      },
      unknownCode: null,
    });
    expect(readPricing(429, undefined, 'time_interval').outcome).toMatchObject({
      kind: 'carrier_error',
      detail: 'Yandex HTTP 429',
    });
    // An error body cut short (or a proxy's page) says so: the status alone would hide it.
    expect(readPricing(400, undefined, 'time_interval', '{"code":"validation_er').outcome).toMatchObject({
      kind: 'carrier_error',
      detail: 'Yandex HTTP 400 with a body that is not JSON',
    });
    expect(readPricing(500, { code: 'internal_error' }, 'time_interval').outcome).toMatchObject({
      kind: 'carrier_error',
    });
    const v = readPricing(
      400,
      { code: 'validation_error', message: 'total_weight must be an integer' },
      'time_interval',
    );
    expect(v.outcome).toMatchObject({
      kind: 'carrier_error',
      detail: 'Yandex HTTP 400: validation_error: total_weight must be an integer',
    });
    expect(v.unknownCode).toBeNull();
    expect(readPricing(400, { code: 'brand_new', message: '?' }, 'time_interval').unknownCode).toBe(
      'brand_new',
    );
  });

  it("route refusals from Yandex's errors page are no service (audit Y3, Y8)", () => {
    const parse = { code: 'validation_error', message: 'Cannot parse destination info' };
    expect(readPricing(400, parse, 'time_interval')).toEqual({
      outcome: {
        ok: false,
        kind: 'no_service',
        detail: 'no door rate: Yandex could not place a town-level address (it asks «город, улица, дом»)',
      },
      unknownCode: null,
    });
    // Only the door leg sends an address: for a pickup point the same text is not about our address.
    expect(readPricing(400, parse, 'self_pickup').outcome).toMatchObject({ kind: 'carrier_error' });
    for (const message of ['Dimensions should not exceed limit', 'No dropoff available']) {
      for (const tariff of ['time_interval', 'self_pickup'] as const) {
        const r = readPricing(404, { code: '404', message }, tariff);
        expect(r.outcome).toMatchObject({ ok: false, kind: 'no_service' });
        // A code that only repeats the status is nothing new to log.
        expect(r.unknownCode).toBeNull();
      }
    }
    expect(readPricing(500, { message: 'No dropoff available' }, 'time_interval').outcome).toMatchObject({
      kind: 'carrier_error',
    });
  });

  it('malformed 200s are carrier errors', () => {
    for (const body of [undefined, {}, { pricing_total: 225.7 }, { pricing_total: 'дорого' }, []]) {
      expect(readPricing(200, body, 'time_interval').outcome).toMatchObject({
        ok: false,
        kind: 'carrier_error',
      });
    }
  });
});
