// Every bound of spec §2 (Location, Parcel, Shipment) on the zod contract: each edge is accepted and
// the first value past it is rejected, so an off-by-one in core/contract/v1.ts cannot go unnoticed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Location,
  MAX_CARRIERS_FILTER,
  Parcel,
  Shipment,
  type ShipmentInput,
} from '../../../../core/contract/v1';

const okLocation = { city: 'Москва' };
const okParcel = { weight_grams: 1000, length_cm: 10, width_cm: 10, height_cm: 10 };
const okShipment: ShipmentInput = { from: okLocation, to: { city: 'Казань' }, parcel: okParcel };

const location = (patch: Record<string, unknown>): unknown => ({ ...okLocation, ...patch });
const parcel = (patch: Record<string, unknown>): unknown => ({ ...okParcel, ...patch });
const shipment = (patch: Record<string, unknown>): unknown => ({ ...okShipment, ...patch });

/** The paths (dot-joined) of the issues of a failed parse, or [] when the value was accepted. */
function issuePaths(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  return result.success ? [] : (result.error?.issues ?? []).map((i) => i.path.map(String).join('.'));
}

describe('Location', () => {
  it('country: only "RU", default "RU"', () => {
    expect(Location.parse(okLocation).country).toBe('RU');
    expect(Location.parse(location({ country: 'RU' })).country).toBe('RU');
    for (const country of ['ru', 'KZ', 'RUS', '', ' RU', null, 7]) {
      expect(issuePaths(Location.safeParse(location({ country })))).toEqual(['country']);
    }
  });

  it('city: required, length 1 to 120', () => {
    expect(Location.safeParse(location({ city: 'А' })).success).toBe(true);
    expect(Location.safeParse(location({ city: 'я'.repeat(120) })).success).toBe(true);
    expect(issuePaths(Location.safeParse(location({ city: '' })))).toEqual(['city']);
    expect(issuePaths(Location.safeParse(location({ city: 'я'.repeat(121) })))).toEqual(['city']);
    expect(issuePaths(Location.safeParse({}))).toEqual(['city']);
    expect(issuePaths(Location.safeParse(location({ city: null })))).toEqual(['city']);
  });

  it('postal_code: exactly 6 ASCII digits, null or absent', () => {
    for (const postal_code of ['000000', '101000', '999999', null, undefined]) {
      expect(Location.safeParse(location({ postal_code })).success, String(postal_code)).toBe(true);
    }
    const bad = [
      '12345',
      '1234567',
      '12345a',
      'abcdef',
      '',
      ' 123456',
      '123456 ',
      '123456\n',
      '١٢٣٤٥٦',
      123456,
    ];
    for (const postal_code of bad) {
      expect(issuePaths(Location.safeParse(location({ postal_code }))), JSON.stringify(postal_code)).toEqual([
        'postal_code',
      ]);
    }
  });

  it('rejects unknown properties', () => {
    expect(issuePaths(Location.safeParse(location({ zip: '101000' })))).toEqual(['']);
    const result = Location.safeParse(location({ zip: '101000' }));
    expect(result.success || result.error.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['zip'],
    });
  });
});

describe('Parcel', () => {
  it('weight_grams: integer, greater than 0, at most 1000000', () => {
    for (const weight_grams of [1, 500, 1_000_000]) {
      expect(Parcel.safeParse(parcel({ weight_grams })).success, String(weight_grams)).toBe(true);
    }
    for (const weight_grams of [0, -1, 1_000_001, 1.5, 0.5, Number.NaN, Infinity, '100', null]) {
      expect(issuePaths(Parcel.safeParse(parcel({ weight_grams }))), String(weight_grams)).toEqual([
        'weight_grams',
      ]);
    }
  });

  for (const field of ['length_cm', 'width_cm', 'height_cm'] as const) {
    it(`${field}: greater than 0, at most 1000, fractions allowed`, () => {
      for (const value of [0.1, 0.0001, 1, 12.5, 1000]) {
        expect(Parcel.safeParse(parcel({ [field]: value })).success, String(value)).toBe(true);
      }
      for (const value of [0, -0, -0.1, 1000.01, 1001, Number.NaN, Infinity, '10', null]) {
        expect(issuePaths(Parcel.safeParse(parcel({ [field]: value }))), String(value)).toEqual([field]);
      }
      const { [field]: _omitted, ...rest } = okParcel;
      expect(issuePaths(Parcel.safeParse(rest))).toEqual([field]);
    });
  }

  it('rejects unknown properties', () => {
    const result = Parcel.safeParse(parcel({ weight_kg: 1 }));
    expect(result.success || result.error.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['weight_kg'],
      path: [],
    });
  });
});

describe('Shipment', () => {
  it('from, to and parcel are required', () => {
    for (const field of ['from', 'to', 'parcel'] as const) {
      const { [field]: _omitted, ...rest } = okShipment;
      expect(issuePaths(Shipment.safeParse(rest))).toEqual([field]);
    }
  });

  it('declared_value_kopecks: integer 0 to 100000000000, default 0', () => {
    expect(Shipment.parse(okShipment).declared_value_kopecks).toBe(0);
    for (const declared_value_kopecks of [0, 1, 100_000_000_000]) {
      expect(Shipment.parse(shipment({ declared_value_kopecks })).declared_value_kopecks).toBe(
        declared_value_kopecks,
      );
    }
    for (const declared_value_kopecks of [-1, 100_000_000_001, 1.5, '0', null, Number.NaN]) {
      expect(
        issuePaths(Shipment.safeParse(shipment({ declared_value_kopecks }))),
        String(declared_value_kopecks),
      ).toEqual(['declared_value_kopecks']);
    }
  });

  it('carriers: null, absent, or an array of 1 to 40 character strings', () => {
    for (const carriers of [
      null,
      undefined,
      [],
      ['cdek'],
      ['a'],
      ['x'.repeat(40)],
      ['cdek', 'russian-post'],
    ]) {
      expect(Shipment.safeParse(shipment({ carriers })).success, JSON.stringify(carriers)).toBe(true);
    }
    expect(issuePaths(Shipment.safeParse(shipment({ carriers: [''] })))).toEqual(['carriers.0']);
    expect(issuePaths(Shipment.safeParse(shipment({ carriers: ['cdek', 'x'.repeat(41)] })))).toEqual([
      'carriers.1',
    ]);
    expect(issuePaths(Shipment.safeParse(shipment({ carriers: [1] })))).toEqual(['carriers.0']);
    expect(issuePaths(Shipment.safeParse(shipment({ carriers: 'cdek' })))).toEqual(['carriers']);
  });

  it(`carriers: at most ${MAX_CARRIERS_FILTER} codes (our bound: spec §8 leaves the array size open)`, () => {
    const codes = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    expect(Shipment.safeParse(shipment({ carriers: codes(MAX_CARRIERS_FILTER) })).success).toBe(true);
    expect(issuePaths(Shipment.safeParse(shipment({ carriers: codes(MAX_CARRIERS_FILTER + 1) })))).toEqual([
      'carriers',
    ]);
  });

  it('rejects unknown properties at the top level and in each nested object', () => {
    const cases: [unknown, string][] = [
      [shipment({ currency: 'RUB' }), ''],
      [shipment({ from: location({ street: 'Тверская' }) }), 'from'],
      [shipment({ to: location({ street: 'Невский' }) }), 'to'],
      [shipment({ parcel: parcel({ fragile: true }) }), 'parcel'],
    ];
    for (const [input, path] of cases) {
      const result = Shipment.safeParse(input);
      expect(result.success, path).toBe(false);
      expect(result.error?.issues.map((i) => [i.code, i.path.join('.')])).toEqual([
        ['unrecognized_keys', path],
      ]);
    }
  });

  it('rejects __proto__ and constructor as they arrive from JSON.parse (own properties)', () => {
    const body: unknown = JSON.parse(
      '{"from":{"city":"A","__proto__":{"country":"KZ"}},"to":{"city":"B"},' +
        '"parcel":{"weight_grams":1,"length_cm":1,"width_cm":1,"height_cm":1},"constructor":{}}',
    );
    const result = Shipment.safeParse(body);
    expect(
      result.error?.issues.map((i) => [i.path.join('.'), i.code === 'unrecognized_keys' && i.keys]),
    ).toEqual([
      ['from', ['__proto__']],
      ['', ['constructor']],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties

const cityArb = fc.string({ minLength: 1, maxLength: 120 });
const postalArb = fc.option(fc.stringMatching(/^\d{6}$/), { nil: null });
const locationArb = fc.record(
  { country: fc.constant('RU' as const), city: cityArb, postal_code: postalArb },
  { requiredKeys: ['city'] },
);
// Dimensions: any double in (0, 1000], including the tiny and the exact edge.
const dimensionArb = fc.double({ min: Number.MIN_VALUE, max: 1000, noNaN: true });
const parcelArb = fc.record({
  weight_grams: fc.integer({ min: 1, max: 1_000_000 }),
  length_cm: dimensionArb,
  width_cm: dimensionArb,
  height_cm: dimensionArb,
});
const shipmentArb: fc.Arbitrary<ShipmentInput> = fc.record(
  {
    from: locationArb,
    to: locationArb,
    parcel: parcelArb,
    declared_value_kopecks: fc.integer({ min: 0, max: 100_000_000_000 }),
    carriers: fc.option(
      fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: MAX_CARRIERS_FILTER }),
      { nil: null },
    ),
  },
  { requiredKeys: ['from', 'to', 'parcel'] },
);

const KNOWN_KEYS = new Set([
  'from',
  'to',
  'parcel',
  'declared_value_kopecks',
  'carriers',
  'country',
  'city',
  'postal_code',
  'weight_grams',
  'length_cm',
  'width_cm',
  'height_cm',
]);

describe('properties', () => {
  it('every shipment within the bounds parses, and parsing fills the defaults', () => {
    fc.assert(
      fc.property(shipmentArb, (input) => {
        const out = Shipment.parse(input);
        expect(out.from.country).toBe('RU');
        expect(out.to.country).toBe('RU');
        expect(out.declared_value_kopecks).toBe(input.declared_value_kopecks ?? 0);
      }),
      { numRuns: 300 },
    );
  });

  it('one extra property at any depth fails with an unrecognized_keys issue at that path', () => {
    const extraKeyArb = fc.string({ minLength: 1, maxLength: 20 }).filter((k) => !KNOWN_KEYS.has(k));
    fc.assert(
      fc.property(
        shipmentArb,
        fc.constantFrom('', 'from', 'to', 'parcel'),
        extraKeyArb,
        fc.jsonValue(),
        (input, where, key, value) => {
          const target: Record<string, unknown> = where === '' ? { ...input } : { ...input[where] };
          // defineProperty, not assignment: a key such as `__proto__` must become an own property.
          Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
          const withExtra = where === '' ? target : { ...input, [where]: target };
          const result = Shipment.safeParse(withExtra);
          expect(result.success).toBe(false);
          expect(result.error?.issues).toHaveLength(1);
          expect(result.error?.issues[0]).toMatchObject({
            code: 'unrecognized_keys',
            keys: [key],
            path: where === '' ? [] : [where],
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
