// The address strings PEK geocodes (audit P5): PEK's documented order «страна, регион, район, населенный
// пункт, улица, дом» (glook/pecom-php-sdk generated/Model/AddressBlock.php), the country first, never the
// postal code first, a federal city not named twice.
import { describe, expect, it } from 'vitest';
import {
  PEK_ADDRESS_COUNTRY,
  PEK_POSTAL_CODE_IN_ADDRESS,
  pekAddress,
} from '../../../../../core/carriers/pek/locations';
import { geocodePekAddress } from '../../../../../core/carriers/simulators/pek-geocoder';

describe('PEK address strings', () => {
  it('country, postal code (after the country, when known), region, town', () => {
    expect(pekAddress({ city: 'Казань', region: 'Республика Татарстан', postalCode: '420000' })).toBe(
      'Россия, 420000, Республика Татарстан, Казань',
    );
    expect(pekAddress({ city: 'Киров', region: 'Калужская область', postalCode: null })).toBe(
      'Россия, Калужская область, Киров',
    );
    expect(pekAddress({ city: 'Москва', region: 'Москва', postalCode: '101000' })).toBe(
      'Россия, 101000, Москва',
    );
    expect(PEK_ADDRESS_COUNTRY).toBe('Россия');
    expect(PEK_POSTAL_CODE_IN_ADDRESS).toBe('after_country');
  });

  it('"omit" leaves the postal code out', () => {
    expect(pekAddress({ city: 'Казань', region: 'Республика Татарстан', postalCode: '420000' }, 'omit')).toBe(
      'Россия, Республика Татарстан, Казань',
    );
  });

  it('never starts with the postal code, and the simulator’s geocoder (PEK’s order) places every one of them', () => {
    for (const place of [
      { city: 'Казань', region: 'Республика Татарстан', postalCode: '420000' },
      { city: 'Киров', region: 'Калужская область', postalCode: null },
      { city: 'Москва', region: 'Москва', postalCode: '101000' },
      { city: 'Новосибирск', region: 'Новосибирская область', postalCode: '630000' },
    ]) {
      const address = pekAddress(place);
      expect(address).not.toMatch(/^\d/);
      const geo = geocodePekAddress(address);
      expect(geo.ok && geo.place.city?.name, address).toBe(place.city);
      expect(geo.ok && geo.place.street, address).toBe(false);
    }
  });
});
