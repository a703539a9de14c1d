import { describe, expect, it } from 'vitest';
import { readPoint, type StoredPoint } from '../../../../../core/carriers/fivepost/points';
import {
  fitsCell,
  oneParcel,
  priceKopecks,
  quoteFromPoints,
} from '../../../../../core/carriers/fivepost/quote';

// protocols.md §8.3's constructed catalogue entry, shaped like 5Post's pickuppoints/query content.
const RAW = {
  id: '11111111-2222-3333-4444-555555555555',
  type: 'POSTAMAT',
  name: 'OM000001',
  fullAddress: 'г. Новосибирск, Красный пр-т, 1',
  address: { zipCode: '630000', city: 'Новосибирск', lat: 55.03, lng: 82.92 },
  cellLimits: { maxCellWidth: 450, maxCellHeight: 600, maxCellLength: 450, maxWeight: 15000000 },
  rate: [
    {
      rateType: 'HUB_MOSCOW',
      rateTypeCode: '10',
      zone: '5',
      rateValue: 250.0,
      vat: 20,
      rateValueWithVat: 300.0,
      rateExtraValue: 50.0,
      rateExtraValueWithVat: 60.0,
      rateCurrency: 'RUB',
    },
  ],
  deliverySL: [{ sl: 6, minimalSl: 4, slCode: '10' }],
};

const parcel = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

function stored(over: Record<string, unknown> = {}): StoredPoint {
  return readPoint({ ...RAW, ...over })!;
}

describe('reading a catalogue entry', () => {
  it('keeps rates in kopecks with VAT, cells in mm/mg sorted, days minimalSl..sl', () => {
    expect(stored()).toEqual({
      id: RAW.id,
      zip: '630000',
      cityKey: 'новосибирск',
      region: '',
      problem: null,
      point: {
        type: 'POSTAMAT',
        name: 'OM000001',
        cell: { sidesMm: [600, 450, 450], maxWeightMg: 15_000_000 },
        rates: [
          {
            rateType: 'HUB_MOSCOW',
            rateTypeCode: '10',
            baseKopecks: 30000,
            extraPerKgKopecks: 6000,
            vat: 20,
          },
        ],
        days: { min: 4, max: 6 },
        place: {
          address: 'г. Новосибирск, Красный пр-т, 1',
          lat: 55.03,
          lon: 82.92,
          hours: '',
          cash: false,
          card: false,
        },
      },
    });
  });

  it('takes amounts as strings, decimals exactly, and sl alone for both ends', () => {
    const p = stored({
      rate: [{ rateValueWithVat: '184.35', rateExtraValueWithVat: '18.005' }],
      deliverySL: [{ sl: 5 }],
    }).point!;
    expect(p.rates[0]).toMatchObject({ baseKopecks: 18435, extraPerKgKopecks: 1801 });
    expect(p.days).toEqual({ min: 5, max: 5 });
  });

  it('drops rates in another currency; keeps an unreadable entry with its reason', () => {
    expect(stored({ rate: [{ ...RAW.rate[0], rateValueWithVat: 0 }] }).point!.rates).toEqual([]);
    expect(stored({ rate: [{ ...RAW.rate[0], rateCurrency: 'USD' }] }).point!.rates).toEqual([]);
    const bad = readPoint({ ...RAW, rate: [{ rateValueWithVat: 'по запросу' }] })!;
    expect(bad.point).toBeNull();
    expect(bad.problem).toMatch(/^rate\.0\.rateValueWithVat: /);
    expect(readPoint({ type: 'POSTAMAT' })).toBeNull();
    expect(readPoint('nonsense')).toBeNull();
  });
});

describe('pricing (verified-2026 §8.3)', () => {
  const rate = { rateType: '', baseKopecks: 30000, extraPerKgKopecks: 6000, vat: 22 };
  it('is the base rate up to 3 kg', () => {
    expect(priceKopecks(rate, 1, 'per_started_kg')).toBe(30000);
    expect(priceKopecks(rate, 3000, 'per_started_kg')).toBe(30000);
  });
  it('adds the extra rate per started kilogram, or pro rata with a half-up kopeck', () => {
    expect(priceKopecks(rate, 3001, 'per_started_kg')).toBe(36000);
    expect(priceKopecks(rate, 4200, 'per_started_kg')).toBe(42000);
    expect(priceKopecks(rate, 4200, 'proportional')).toBe(37200);
    expect(priceKopecks({ ...rate, extraPerKgKopecks: 1801 }, 3250, 'proportional')).toBe(30450); // 450.25 → 450
    expect(priceKopecks({ ...rate, extraPerKgKopecks: 1802 }, 3250, 'proportional')).toBe(30451); // 450.5 → 451
  });
  it('does not guess above 3 kg without an extra rate', () => {
    expect(priceKopecks({ ...rate, extraPerKgKopecks: null }, 3500, 'per_started_kg')).toBeNull();
  });
});

describe('cells', () => {
  it('take a parcel in any orientation, by weight in mg', () => {
    const point = stored().point!;
    expect(fitsCell(point, { weight_grams: 15_000, length_cm: 45, width_cm: 60, height_cm: 45 })).toBe(true);
    expect(fitsCell(point, { weight_grams: 15_001, length_cm: 10, width_cm: 10, height_cm: 10 })).toBe(false);
    expect(fitsCell(point, { weight_grams: 100, length_cm: 61, width_cm: 10, height_cm: 10 })).toBe(false);
    expect(fitsCell(point, { weight_grams: 100, length_cm: 46, width_cm: 46, height_cm: 46 })).toBe(false);
  });
});

describe('quoteFromPoints', () => {
  it('derives the constructed example: 1.2 kg → 30000 kopecks, 4–6 days, pickup point', () => {
    expect(quoteFromPoints([stored()], oneParcel(parcel), 'per_started_kg', 'Новосибирск')).toEqual({
      ok: true,
      rates: [
        {
          carrier: '5post',
          carrier_name: '5Post',
          service_code: '5post:POSTAMAT',
          service_name: 'Постамат (оценка по каталогу)',
          delivery_type: 'pickup_point',
          price_kopecks: 30000,
          currency: 'RUB',
          days_min: 4,
          days_max: 6,
          price_type: 'public',
          // #21: prepaid, nothing declared: the delivery is the whole price.
          breakdown: { base_kopecks: 30000, insurance_kopecks: 0, cod_fee_kopecks: 0 },
        },
      ],
    });
  });

  it('takes the cheapest point per type and, at a point, the rate of the sender’s hub (guide §4.4, F6)', () => {
    const twoHubs = stored({
      id: 'b',
      rate: [
        { rateType: 'HUB_SPB', rateTypeCode: '20', rateValueWithVat: 199.99 },
        { rateType: 'HUB_MOSCOW', rateTypeCode: '10', rateValueWithVat: 250 },
      ],
    });
    // From Moscow the Moscow rate (250 ₽, cheaper than the other point's 300 ₽), not the cheapest 199.99 ₽.
    expect(
      quoteFromPoints([stored(), twoHubs], oneParcel(parcel), 'per_started_kg', 'x', 'HUB_MOSCOW'),
    ).toMatchObject({
      ok: true,
      rates: [{ price_kopecks: 25000 }],
    });
    expect(
      quoteFromPoints([stored(), twoHubs], oneParcel(parcel), 'per_started_kg', 'x', 'HUB_SPB'),
    ).toMatchObject({
      ok: true,
      rates: [{ price_kopecks: 19999 }],
    });
  });

  it.each([
    ['no point', [], '5Post has no pickup point in Город'],
    ['only unpriced points', [stored({ rate: [] })], '5Post gives no rate for its points in Город'],
    [
      'no cell large enough',
      [stored({ cellLimits: { maxCellWidth: 10, maxCellHeight: 10, maxCellLength: 10, maxWeight: 1 } })],
      'no 5Post cell in Город takes this parcel',
    ],
  ])('%s → no_service with an honest detail', (_name, points, detail) => {
    expect(quoteFromPoints(points as StoredPoint[], oneParcel(parcel), 'per_started_kg', 'Город')).toEqual({
      ok: false,
      failure: { kind: 'no_service', detail },
    });
  });

  it('only unreadable points → carrier_error naming the entry', () => {
    const bad = readPoint({ ...RAW, rate: [{ rateValueWithVat: 'по запросу' }] })!;
    expect(quoteFromPoints([bad], oneParcel(parcel), 'per_started_kg', 'Город')).toMatchObject({
      ok: false,
      failure: { kind: 'carrier_error', detail: expect.stringMatching(/could not be read/) },
    });
  });
});
