import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DPD_PLACE_WITH_INDEX,
  locateForDpd,
  pickCandidate,
  regionCodeOfTyped,
  retryPlace,
  type DpdPlace,
} from '../../../../../core/carriers/dpd/locations';
import { readCostAnswer } from '../../../../../core/carriers/dpd/mapper';
import type { DpdCityIndex } from '../../../../../core/carriers/dpd/schema';
import { createLocationResolver } from '../../../../../core/locations/resolver';

const FIXTURES = join(__dirname, '../../../../fixtures/carriers/dpd');
/** The candidates of a fixture Fault (test/fixtures/carriers/dpd), both sides together. */
function candidatesOf(file: string): DpdCityIndex[] {
  const r = readCostAnswer(500, readFileSync(join(FIXTURES, file), 'utf8'), false, 'RUB');
  if (r.kind !== 'ambiguous') throw new Error(`${file}: expected candidates, got ${r.kind}`);
  return [...r.pickupDups, ...r.deliveryDups];
}

const signal = new AbortController().signal;
const cand = (cityId: string, regionCode: string, abbreviation: string, index: string): DpdCityIndex => ({
  cityId,
  regionCode,
  abbreviation,
  indexMin: index,
  indexMax: index,
  countryCode: 'RU',
  regionName: `region ${regionCode}`,
});

describe('DPD locations', () => {
  it('a postal code is sent as index with the table’s name and region beside it; a table city as name + KLADR region code + RU', async () => {
    const r = createLocationResolver();
    const withIndex = await locateForDpd(r, { city: 'Казань', postalCode: '420000' }, signal);
    expect(withIndex.ok && withIndex.place.request).toEqual({
      index: '420000',
      cityName: 'Казань',
      regionCode: 16,
      countryCode: 'RU',
    });
    const byName = await locateForDpd(r, { city: 'Киров, Калужская обл', postalCode: null }, signal);
    expect(byName.ok && byName.place.request).toEqual({
      cityName: 'Киров',
      regionCode: 40,
      countryCode: 'RU',
    });
    const spb = await locateForDpd(r, { city: 'спб', postalCode: null }, signal);
    expect(spb.ok && spb.place.request).toEqual({
      cityName: 'Санкт-Петербург',
      regionCode: 78,
      countryCode: 'RU',
    });
  });

  it('a place the table lacks goes by the typed name, with the typed region when the table knows it', async () => {
    const r = createLocationResolver();
    const typed = await locateForDpd(r, { city: 'Кольцово, Новосибирская обл', postalCode: null }, signal);
    expect(typed.ok && typed.place.request).toEqual({
      cityName: 'Кольцово',
      regionCode: 54,
      countryCode: 'RU',
    });
    const bare = await locateForDpd(r, { city: 'Кольцово', postalCode: null }, signal);
    expect(bare.ok && bare.place.request).toEqual({ cityName: 'Кольцово', countryCode: 'RU' });
    expect(regionCodeOfTyped('Х, Нигдешняя обл')).toBeNull();
  });

  it('picks the candidate in the wanted region, by index, else the one town; null when the table cannot settle it', async () => {
    const r = createLocationResolver();
    const pushkino = await locateForDpd(r, { city: 'Пушкино', postalCode: null }, signal);
    if (!pushkino.ok) throw new Error('expected a place');
    const place: DpdPlace = pushkino.place;
    expect(
      pickCandidate(place, [
        cand('2', '50', 'д', '141231'),
        cand('1', '50', 'г', '141200'),
        cand('3', '43', 'г', '141200'),
      ])?.cityId,
    ).toBe('1');
    // No index match: the one town among villages of the region.
    expect(
      pickCandidate({ ...place, city: null }, [cand('2', '50', 'д', '1'), cand('1', '50', 'г.', '2')])
        ?.cityId,
    ).toBe('1');
    // Two villages, no index, no town: not guessed.
    expect(
      pickCandidate({ ...place, city: null }, [cand('2', '50', 'д', '1'), cand('4', '50', 'д', '2')]),
    ).toBeNull();
    // Nothing in the wanted region.
    expect(pickCandidate(place, [cand('9', '77', 'г', '101000')])).toBeNull();
  });
});

describe('DPD locations: an index-only place (audit DP5)', () => {
  it('is one constant: the index travels with the table’s name and region', () => {
    expect(DPD_PLACE_WITH_INDEX).toBe('index_and_name');
  });

  it('index_only sends the index alone; a name the table does not know never goes beside an index', async () => {
    const r = createLocationResolver();
    const only = await locateForDpd(r, { city: 'Казань', postalCode: '420000' }, signal, 'index_only');
    expect(only.ok && only.place.request).toEqual({ index: '420000' });
    // A typo beside a good index must not spoil it: the name goes along only when the table knows it.
    const typo = await locateForDpd(r, { city: 'Казнь', postalCode: '420000' }, signal);
    expect(typo.ok && typo.place.request).toEqual({ index: '420000' });
    const village = await locateForDpd(r, { city: 'Кольцово', postalCode: '630559' }, signal);
    expect(village.ok && village.place.request).toEqual({ index: '630559' });
  });
});

describe('DPD locations: candidates without the optional fields (audit DP8, fixtures)', () => {
  const pushkino = async (postalCode: string | null = null): Promise<DpdPlace> => {
    const p = await locateForDpd(createLocationResolver(), { city: 'Пушкино', postalCode }, signal);
    if (!p.ok) throw new Error('expected a place');
    return p.place;
  };

  it('a town and a village of one region without abbreviation or index range: asked again by the table’s index', async () => {
    const dups = candidatesOf('fault2-candidates-without-optional-fields.xml');
    expect(dups.map((d) => [d.regionCode, d.abbreviation, d.indexMin])).toEqual([
      ['50', undefined, undefined],
      ['50', undefined, undefined],
    ]);
    const place = await pushkino();
    expect(pickCandidate(place, dups)).toBeNull(); // nothing to choose by …
    expect(retryPlace(place, dups)).toEqual({ index: '141200' }); // … so DPD is asked by the town's index
    // The postal code given wins over the table's main index.
    expect(retryPlace(await pushkino('141231'), dups)).toEqual({ index: '141231' });
  });

  it('the older ServiceCostFault’s candidates (city: no abbreviation, no index range) settle by region', async () => {
    const dups = candidatesOf('fault1-city-candidates.xml');
    expect(dups.map((d) => d.regionCode)).toEqual(['50', '23']);
    expect(retryPlace(await pushkino(), dups)).toEqual({ cityId: 196039811 });
  });

  it('a cityCode equal to the table city’s KLADR code picks the town', async () => {
    const dups = candidatesOf('fault2-candidates-with-citycode.xml');
    expect(retryPlace(await pushkino(), dups)).toEqual({ cityId: 514202330 });
  });

  it('a candidate without regionCode is judged by its regionName, and kept when neither says', async () => {
    const place = await pushkino();
    const other: DpdCityIndex = { cityId: '7', regionName: 'Краснодарский край', cityName: 'Пушкино' };
    const ours: DpdCityIndex = { cityId: '8', regionName: 'Московская', cityName: 'Пушкино' };
    expect(pickCandidate(place, [other, ours])?.cityId).toBe('8');
    const silent: DpdCityIndex = { cityId: '9', cityName: 'г. Пушкино' };
    const village: DpdCityIndex = { cityId: '10', cityName: 'Пушкино' };
    expect(pickCandidate(place, [village, silent])?.cityId).toBe('9'); // «г.» written into the name
  });

  it('nothing to choose by and no index: null (city not found); an index DPD found ambiguous alone is not asked again', async () => {
    const dups = candidatesOf('fault2-candidates-without-optional-fields.xml');
    const bare = await locateForDpd(
      createLocationResolver(),
      { city: 'Кольцово', postalCode: null },
      signal,
    ).then((p) => {
      if (!p.ok) throw new Error('expected a place');
      return p.place;
    });
    expect(retryPlace({ ...bare, regionCode: 50 }, dups)).toBeNull();
    const byIndex = await locateForDpd(
      createLocationResolver(),
      { city: 'Кольцово', postalCode: '141200' },
      signal,
    );
    if (!byIndex.ok) throw new Error('expected a place');
    expect(byIndex.place.request).toEqual({ index: '141200' });
    expect(retryPlace({ ...byIndex.place, regionCode: 50 }, dups)).toBeNull();
  });
});
