// The pricing-calculator body against the official page (YA-MD): grams, whole centimetres with dx = length,
// dy = height, dz = width, kopecks; and "225.7 RUB" parsed exactly.
import { describe, expect, it } from 'vitest';
import { parsePricingTotal } from '../../../../../core/carriers/yandex/money';
import { buildPricingRequest } from '../../../../../core/carriers/yandex/request';

describe('Yandex request', () => {
  it('builds the documented body', () => {
    expect(
      buildPricingRequest({
        sourceStationId: 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924',
        destination: { platform_station_id: 'e1139f6d-e34f-47a9-a55f-31f032a861a6' },
        tariff: 'self_pickup',
        places: [{ weight_grams: 1200, length_cm: 30.2, width_cm: 20, height_cm: 15 }],
        declaredValueKopecks: 150_000,
        codKopecks: 0,
      }),
    ).toEqual({
      source: { platform_station_id: 'fbed3aa1-2cc6-4370-ab4d-59c5cc9bb924' },
      destination: { platform_station_id: 'e1139f6d-e34f-47a9-a55f-31f032a861a6' },
      tariff: 'self_pickup',
      total_weight: 1200,
      total_assessed_price: 150_000,
      client_price: 0,
      payment_method: 'already_paid',
      places: [{ physical_dims: { weight_gross: 1200, dx: 31, dy: 15, dz: 20 } }],
    });
  });

  it('parses pricing_total exactly, roubles only', () => {
    expect(parsePricingTotal('225.7 RUB')).toBe(22570);
    expect(parsePricingTotal('225.70 RUB')).toBe(22570);
    expect(parsePricingTotal('8.255 RUB')).toBe(826);
    expect(parsePricingTotal('412 RUB')).toBe(41200);
    expect(parsePricingTotal('225.7')).toBeUndefined();
    expect(parsePricingTotal('225.7 KZT')).toBeUndefined();
    expect(parsePricingTotal('225,7 RUB')).toBeUndefined();
    expect(parsePricingTotal('-1 RUB')).toBeUndefined();
  });
});
