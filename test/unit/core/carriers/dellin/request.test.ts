// The /v2/calculator.json body against the documented protocol (protocols.md §4.4, DL-CALC): appkey in the
// body, auto freight from a terminal, metres / kilograms / cubic metres, KLADR codes of 25 characters.
import { describe, expect, it } from 'vitest';
import {
  buildCalculatorRequest,
  cargoOf,
  DELLIN_STREETLESS_DOOR,
  townSearch,
  kladr25,
  moscowDate,
  nextDay,
  type DellinCalcInput,
} from '../../../../../core/carriers/dellin/request';

const input = (over: Partial<DellinCalcInput> = {}): DellinCalcInput => ({
  appkey: 'KEY',
  derivalTerminalId: '36',
  derivalCityKladr: kladr25('7700000000000'),
  arrival: { variant: 'terminal', terminalId: '42' },
  produceDate: '2026-11-24',
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }],
  declaredValueKopecks: 0,
  ...over,
});

describe('Dellin request', () => {
  it('terminal → terminal: appkey in the body, auto, produce date, terminal ids, noncash payment in the sender city', () => {
    expect(buildCalculatorRequest(input())).toEqual({
      appkey: 'KEY',
      delivery: {
        deliveryType: { type: 'auto' },
        derival: { produceDate: '2026-11-24', variant: 'terminal', terminalID: '36' },
        arrival: { variant: 'terminal', terminalID: '42' },
      },
      cargo: {
        quantity: 1,
        length: 0.3,
        width: 0.2,
        height: 0.1,
        weight: 1.2,
        totalVolume: 0.006,
        totalWeight: 1.2,
        hazardClass: 0,
      },
      payment: { type: 'noncash', paymentCity: '7700000000000000000000000' },
    });
  });

  it('to the door: variant address with a searched address and working hours, never `city` (DL3)', () => {
    const bySearch = buildCalculatorRequest(
      input({ arrival: { variant: 'address', search: '420000, Республика Татарстан, Казань' } }),
    );
    expect((bySearch.delivery as { arrival: unknown }).arrival).toEqual({
      variant: 'address',
      address: { search: '420000, Республика Татарстан, Казань' },
      time: { worktimeStart: '09:00', worktimeEnd: '18:00' },
    });
  });

  it('the town-level search: index when known, region unless a federal city, town; comma-separated', () => {
    expect(townSearch({ city: 'Казань', region: 'Республика Татарстан', postalCode: '420000' })).toBe(
      '420000, Республика Татарстан, Казань',
    );
    expect(townSearch({ city: 'Киров', region: 'Калужская область', postalCode: null })).toBe(
      'Калужская область, Киров',
    );
    expect(townSearch({ city: 'Москва', region: 'Москва', postalCode: '101000' })).toBe('101000, Москва');
    expect(DELLIN_STREETLESS_DOOR).toBe('town_search');
  });

  it('declares an oversized place (over 100 kg or a side over 3 m) and insurance in roubles', () => {
    expect(cargoOf([{ weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 }])).toMatchObject(
      {
        length: 3,
        weight: 900,
        totalVolume: 27,
        oversizedWeight: 900,
        oversizedVolume: 27,
      },
    );
    expect(cargoOf([{ weight_grams: 50_000, length_cm: 301, width_cm: 10, height_cm: 10 }])).toHaveProperty(
      'oversizedWeight',
      50,
    );
    expect(
      cargoOf([{ weight_grams: 100_000, length_cm: 300, width_cm: 10, height_cm: 10 }]),
    ).not.toHaveProperty('oversizedWeight');
    const insured = buildCalculatorRequest(input({ declaredValueKopecks: 150_050 }));
    expect((insured.cargo as { insurance: unknown }).insurance).toEqual({ statedValue: 1500.5, term: false });
  });

  it('units are exact: whole centimetres rounded up, then metres', () => {
    expect(cargoOf([{ weight_grams: 1, length_cm: 10.2, width_cm: 10, height_cm: 10 }])).toMatchObject({
      length: 0.11,
      weight: 0.001,
      totalVolume: 0.0011,
    });
  });

  it('KLADR: the table’s 13 digits + 12 zeros; dates in Moscow', () => {
    expect(kladr25('5400000100000')).toBe('5400000100000000000000000');
    expect(moscowDate(new Date('2026-11-24T21:30:00Z'))).toBe('2026-11-25');
    expect(moscowDate(new Date('2026-11-24T20:59:00Z'))).toBe('2026-11-24');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
