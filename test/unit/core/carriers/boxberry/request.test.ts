import { describe, expect, it } from 'vitest';
import {
  buildDeliveryCalculation,
  kopecksToRoubles,
  listCitiesFullUrl,
  zipCheckUrl,
} from '../../../../../core/carriers/boxberry/request';

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 15 };

describe('Boxberry DeliveryCalculation body (protocols.md §3.4)', () => {
  it('carries token and method in the JSON body, Boxberry city codes, grams, whole cm and roubles', () => {
    const body = buildDeliveryCalculation({
      token: 'T',
      senderCityId: '68',
      recipientCityId: '50',
      deliveryType: 1,
      zip: null,
      places: [parcel],
      declaredValueKopecks: 150_000,
      codKopecks: 0,
    });
    expect(body).toEqual({
      token: 'T',
      method: 'DeliveryCalculation',
      SenderCityId: '68',
      RecipientCityId: '50',
      DeliveryType: 1,
      OrderSum: 1500,
      DeliverySum: 0,
      PaySum: 0,
      BoxSizes: [{ Width: 20, Height: 15, Depth: 30, Weight: 1200 }],
      UseShopSettings: 0,
    });
  });

  it('rounds fractional sizes and weight up (Boxberry refuses fractions) and adds Zip only when given', () => {
    const body = buildDeliveryCalculation({
      token: 'T',
      senderCityId: '68',
      recipientCityId: '50',
      deliveryType: 2,
      zip: '420000',
      places: [{ weight_grams: 999.2, length_cm: 10.1, width_cm: 5.5, height_cm: 1 }],
      declaredValueKopecks: 0,
      codKopecks: 0,
    });
    expect(body.BoxSizes).toEqual([{ Width: 6, Height: 1, Depth: 11, Weight: 1000 }]);
    expect(body.Zip).toBe('420000');
    expect(body.DeliveryType).toBe(2);
    expect(body.OrderSum).toBe(0);
  });

  it('#21: one BoxSizes entry per place, OrderSum the declared value and PaySum the cash on delivery, roubles', () => {
    const body = buildDeliveryCalculation({
      token: 'T',
      senderCityId: '68',
      recipientCityId: '50',
      deliveryType: 1,
      zip: null,
      places: [parcel, { weight_grams: 3000, length_cm: 40, width_cm: 30, height_cm: 20.5 }],
      declaredValueKopecks: 150_000,
      codKopecks: 120_050,
    });
    expect(body.BoxSizes).toEqual([
      { Width: 20, Height: 15, Depth: 30, Weight: 1200 },
      { Width: 30, Height: 21, Depth: 40, Weight: 3000 },
    ]);
    expect(body.OrderSum).toBe(1500);
    expect(body.PaySum).toBe(1200.5);
  });

  it('converts kopecks to roubles exactly', () => {
    expect(kopecksToRoubles(150_050)).toBe(1500.5);
    expect(kopecksToRoubles(1)).toBe(0.01);
    expect(kopecksToRoubles(825)).toBe(8.25);
    expect(String(kopecksToRoubles(123_456_789))).toBe('1234567.89');
  });

  it('asks directory methods as GET with token and method in the query string', () => {
    expect(listCitiesFullUrl('https://api.boxberry.ru/json.php', 'a b')).toBe(
      'https://api.boxberry.ru/json.php?token=a+b&method=ListCitiesFull&CountryCode=643',
    );
    expect(zipCheckUrl('https://api.boxberry.ru/json.php', 'T', '420000')).toBe(
      'https://api.boxberry.ru/json.php?token=T&method=ZipCheck&Zip=420000',
    );
  });
});
