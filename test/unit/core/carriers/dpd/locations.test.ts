import { describe, expect, it } from 'vitest';
import {
  locateForDpd,
  pickCandidate,
  regionCodeOfTyped,
  type DpdPlace,
} from '../../../../../core/carriers/dpd/locations';
import type { DpdCityIndex } from '../../../../../core/carriers/dpd/schema';
import { createLocationResolver } from '../../../../../core/locations/resolver';

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
  it('a postal code is sent as index; a table city as name + KLADR region code + RU', async () => {
    const r = createLocationResolver();
    const withIndex = await locateForDpd(r, { city: 'Казань', postalCode: '420000' }, signal);
    expect(withIndex.ok && withIndex.place.request).toEqual({ index: '420000' });
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
