// #21, the clerk's quote in the form: several places (a count, further boxes), cash on delivery and the ship
// date become the QuoteRequest; one box without COD or a date stays exactly the /v1 shipment.
import { describe, expect, it } from 'vitest';
import { QuoteRequest } from '../../../../../../core/contract/quote-ext';
import {
  buildShipment,
  EMPTY_DRAFT,
  localiseDraft,
  restoreDraft,
  sameShipment,
  type QuoteDraft,
} from '../../../../../../renderer/src/features/quote/logic';
import {
  parseCount,
  parseShipDate,
  placeFieldId,
  tomorrowOf,
} from '../../../../../../renderer/src/features/quote/places-draft';

const TODAY = '2026-11-27';
const ONE: QuoteDraft = {
  ...EMPTY_DRAFT,
  fromCity: 'Москва',
  toCity: 'Казань',
  weight: '1,2',
  length: '30',
  width: '20',
  height: '10',
};

describe('the request the form sends', () => {
  it('one box, no COD, no date: exactly the /v1 shipment (parcel, nothing else)', () => {
    const built = buildShipment(ONE, TODAY);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.shipment.parcel).toEqual({ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 });
    expect(built.shipment).not.toHaveProperty('places');
    expect(built.shipment).not.toHaveProperty('cod_kopecks');
    expect(built.shipment).not.toHaveProperty('ship_date');
    expect(QuoteRequest.safeParse(built.shipment).success).toBe(true);
  });

  it('N × the same box: places with its count', () => {
    const built = buildShipment({ ...ONE, count: '3' }, TODAY);
    expect(built.ok && built.shipment.places).toEqual([
      { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 3 },
    ]);
    expect(built.ok && built.shipment.parcel).toBeUndefined();
  });

  it('further places, COD and a date: the clerk’s QuoteRequest, valid by the contract', () => {
    const d: QuoteDraft = {
      ...ONE,
      count: '2',
      more: [{ weight: '3 кг', length: '40', width: '30', height: '20', count: '' }],
      value: '5 000',
      cod: '2 500,50',
      shipDate: '2026-11-28',
    };
    const built = buildShipment(d, TODAY);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.shipment.places).toEqual([
      { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 },
      { weight_grams: 3000, length_cm: 40, width_cm: 30, height_cm: 20, count: 1 },
    ]);
    expect(built.shipment.cod_kopecks).toBe(250_050);
    expect(built.shipment.declared_value_kopecks).toBe(500_000);
    expect(built.shipment.ship_date).toBe('2026-11-28');
    expect(QuoteRequest.safeParse(built.shipment).success).toBe(true);
  });

  it('today is not sent (the core then applies the carrier’s cut-off)', () => {
    const built = buildShipment({ ...ONE, shipDate: TODAY }, TODAY);
    expect(built.ok && built.shipment.ship_date).toBeUndefined();
  });

  it('every wrong field is named, the further places by their index', () => {
    const d: QuoteDraft = {
      ...ONE,
      count: '0',
      more: [
        { weight: '2', length: '10', width: '10', height: '10', count: '' },
        { weight: '', length: 'x', width: '10', height: '10', count: '1,5' },
      ],
      cod: 'много',
      shipDate: '2026-11-26',
    };
    const built = buildShipment(d, TODAY);
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors.count).toBe('range');
    expect(built.errors.cod).toBe('format');
    expect(built.errors.shipDate).toBe('past');
    expect(built.errors.more).toEqual([{}, { weight: 'empty', length: 'format', count: 'format' }]);
  });

  it('more than 50 places in all is said on the count', () => {
    const built = buildShipment(
      { ...ONE, count: '30', more: [{ weight: '1', length: '1', width: '1', height: '1', count: '21' }] },
      TODAY,
    );
    expect(!built.ok && built.errors.count).toBe('tooMany');
  });
});

describe('the parts', () => {
  it('a count is empty (one) or a whole number from 1 to 50', () => {
    expect(parseCount('')).toEqual({ ok: true, value: 1 });
    expect(parseCount(' 7 ')).toEqual({ ok: true, value: 7 });
    expect(parseCount('50')).toEqual({ ok: true, value: 50 });
    expect(parseCount('51')).toEqual({ ok: false, error: 'range' });
    expect(parseCount('0')).toEqual({ ok: false, error: 'range' });
    expect(parseCount('2,5')).toEqual({ ok: false, error: 'format' });
  });

  it('a ship date: today or later, within a year, a real day', () => {
    expect(parseShipDate('', TODAY)).toEqual({ ok: true, value: null });
    expect(parseShipDate(TODAY, TODAY)).toEqual({ ok: true, value: null });
    expect(parseShipDate('2026-12-31', TODAY)).toEqual({ ok: true, value: '2026-12-31' });
    expect(parseShipDate('2026-11-26', TODAY)).toEqual({ ok: false, error: 'past' });
    expect(parseShipDate('2062-11-27', TODAY)).toEqual({ ok: false, error: 'range' });
    expect(parseShipDate('2026-02-30', TODAY)).toEqual({ ok: false, error: 'format' });
    expect(tomorrowOf('2026-12-31')).toBe('2027-01-01');
  });

  it('the first box keeps its ids; further places are place-N-…', () => {
    expect(placeFieldId(1, 'weight')).toBe('weight');
    expect(placeFieldId(1, 'count')).toBe('place-count');
    expect(placeFieldId(1, 'box')).toBe('box-preset');
    expect(placeFieldId(3, 'height')).toBe('place-3-height');
  });
});

describe('kept and compared', () => {
  it('a stored draft keeps its places and COD; a ship date from the past is dropped', () => {
    const stored = {
      ...ONE,
      count: '2',
      more: [{ weight: '3', length: '40', width: '30', height: '20', count: '', extra: 1 }, 'junk'],
      cod: '100',
      shipDate: '2020-01-01',
    };
    const d = restoreDraft(JSON.parse(JSON.stringify(stored)));
    expect(d.more).toEqual([{ weight: '3', length: '40', width: '30', height: '20', count: '' }]);
    expect(d.count).toBe('2');
    expect(d.cod).toBe('100');
    expect(d.shipDate).toBe('');
    // An older build's draft (no #21 fields) reads as one box, no COD, today.
    const old = restoreDraft({ fromCity: 'Москва', weight: '1' });
    expect(old).toMatchObject({ count: '', more: [], cod: '', shipDate: '' });
  });

  it('a language switch localises the further places and the COD too', () => {
    const d = {
      ...ONE,
      cod: '2,5',
      more: [{ weight: '1,5', length: '10', width: '10', height: '10', count: '' }],
    };
    const en = localiseDraft(d, 'en');
    expect(en.cod).toBe('2.5');
    expect(en.more[0]!.weight).toBe('1.5');
  });

  it('COD, places and the date change the question; one place of count 1 is the one box', () => {
    const one = buildShipment(ONE, TODAY);
    const asPlace = buildShipment({ ...ONE, count: '1' }, TODAY);
    const two = buildShipment({ ...ONE, count: '2' }, TODAY);
    const cod = buildShipment({ ...ONE, cod: '100' }, TODAY);
    const dated = buildShipment({ ...ONE, shipDate: '2026-11-30' }, TODAY);
    if (!one.ok || !asPlace.ok || !two.ok || !cod.ok || !dated.ok) throw new Error('built');
    expect(sameShipment(one.shipment, asPlace.shipment)).toBe(true);
    expect(
      sameShipment(one.shipment, {
        ...one.shipment,
        places: [{ ...one.shipment.parcel!, count: 1 }],
        parcel: undefined,
      }),
    ).toBe(true);
    expect(sameShipment(one.shipment, two.shipment)).toBe(false);
    expect(sameShipment(one.shipment, cod.shipment)).toBe(false);
    expect(sameShipment(one.shipment, dated.shipment)).toBe(false);
  });
});
