// CDEK's deliverypoints answer → points: kg to grams, a postamat's largest cell as its box, allowed_cod and
// have_cashless as COD and card, offices that hand nothing out dropped, an odd entry skipped alone.
import { describe, expect, it } from 'vitest';
import { deliveryPointsPath, readDeliveryPoints } from '../../../../../core/carriers/cdek/points';

// Shaped like CDEK's GET /v2/deliverypoints records (the fields core/carriers/cdek/points.ts cites).
const OFFICE = {
  code: 'KZN12',
  name: 'На Баумана',
  uuid: '1c3b2bb0-9c58-4b3a-8d54-0f3b1d2c1a11',
  location: {
    country_code: 'RU',
    region_code: 16,
    region: 'Татарстан',
    city_code: 424,
    city: 'Казань',
    postal_code: '420111',
    longitude: 49.1081,
    latitude: 55.7903,
    address: 'ул. Баумана, 44',
    address_full: '420111, Россия, Татарстан, Казань, ул. Баумана, 44',
  },
  work_time: 'Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00',
  type: 'PVZ',
  owner_code: 'cdek',
  is_handout: true,
  is_reception: true,
  have_cashless: true,
  have_cash: true,
  allowed_cod: true,
  weight_min: 0,
  weight_max: 30,
};
const POSTAMAT = {
  ...OFFICE,
  code: 'KZN305',
  name: 'Постамат',
  type: 'POSTAMAT',
  allowed_cod: false,
  weight_max: 20,
  dimensions: [
    { width: 40, height: 9, depth: 60 },
    { width: 40, height: 39, depth: 60 },
    { width: 40, height: 19, depth: 60 },
  ],
};

describe('CDEK deliverypoints', () => {
  it('asks one town for every kind of point that hands parcels out', () => {
    expect(deliveryPointsPath('424')).toBe('/deliverypoints?city_code=424&type=ALL&is_handout=true');
  });

  it('maps an office and a postamat', () => {
    expect(readDeliveryPoints([OFFICE, POSTAMAT])).toEqual([
      {
        code: 'KZN12',
        kind: 'pvz',
        name: 'На Баумана',
        address: '420111, Россия, Татарстан, Казань, ул. Баумана, 44',
        hours: 'Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00',
        lat: 55.7903,
        lon: 49.1081,
        max_weight_grams: 30_000,
        max_dimensions_cm: null,
        cod: true,
        card: true,
      },
      expect.objectContaining({
        code: 'KZN305',
        kind: 'postamat',
        max_weight_grams: 20_000,
        max_dimensions_cm: [60, 40, 39],
        cod: false,
      }),
    ]);
  });

  it('drops points that hand nothing out and entries it cannot read, keeps the rest', () => {
    const points = readDeliveryPoints([{ ...OFFICE, is_handout: false }, { name: 'no code' }, OFFICE]);
    expect(points.map((p) => p.code)).toEqual(['KZN12']);
  });

  it('an error body is a failure, not an empty town', () => {
    expect(() => readDeliveryPoints({ errors: [{ code: 'v2_internal_error', message: 'x' }] })).toThrow(
      /unexpected body/,
    );
  });
});
