// The city field reads the core's verdict (issue #17): it copies none of the core's rules, so these tests
// feed it answers shaped like cities:search's and check what the field does with them.
import { describe, expect, it } from 'vitest';
import type { CitySuggestion } from '../../../../../../core/desk/contract';
import {
  chosen,
  confirmChoices,
  readLookup,
  replacesText,
} from '../../../../../../renderer/src/features/quote/city-match';

function place(
  name: string,
  region: string,
  match: CitySuggestion['match'],
  confirm: CitySuggestion['confirm'] = null,
  postal_code = '101000',
): CitySuggestion {
  return { name, region, postal_code, recent: false, match, confirm };
}

const ZELENOGRAD = place('Зеленоград', 'Москва', 'exact', null, '124482');
const ZELENOGRADSK = place('Зеленоградск', 'Калининградская область', 'prefix', 'far', '238326');
const TROITSK_CH = place('Троицк', 'Челябинская область', 'exact', 'ambiguous', '457100');
const TROITSK_M = place('Троицк', 'Москва', 'exact', 'ambiguous', '108840');
const TROITSKOE = place('Троицкое', 'Где-то', 'prefix', 'far');

describe('readLookup', () => {
  it('a text the core names one place by is recognised', () => {
    expect(readLookup('Зеленоград', [ZELENOGRAD, ZELENOGRADSK])).toEqual({
      text: 'Зеленоград',
      status: 'recognised',
      match: ZELENOGRAD,
      closest: [],
    });
    const kazan = place('Казань', 'Республика Татарстан', 'alias');
    expect(readLookup('Rfpfym', [kazan]).match).toBe(kazan);
    expect(readLookup('420111', [place('Казань', 'Республика Татарстан', 'postal')]).status).toBe(
      'recognised',
    );
  });

  it('a text several places answer to is unconfirmed, with all of them to choose from', () => {
    expect(readLookup('Троицк', [TROITSK_CH, TROITSK_M, TROITSKOE])).toEqual({
      text: 'Троицк',
      status: 'unconfirmed',
      match: TROITSK_CH,
      closest: [TROITSK_CH, TROITSK_M],
    });
  });

  it('a prefix or a guess is not recognised; the field offers the first three', () => {
    const moscow = place('Москва', 'Москва', 'prefix');
    expect(readLookup('Моск', [moscow])).toMatchObject({ status: 'unrecognised', closest: [moscow] });
    const guesses = ['А', 'Б', 'В', 'Г'].map((n) => place(n, '', 'closest'));
    expect(readLookup('Масква', guesses).closest).toEqual(guesses.slice(0, 3));
    expect(readLookup('Щщщ', [])).toMatchObject({ status: 'unrecognised', closest: [] });
  });

  it('an empty text is empty', () => {
    expect(readLookup('  ', [ZELENOGRAD]).status).toBe('empty');
  });
});

describe('confirming a pick', () => {
  it('weighs namesakes against each other, the pick first', () => {
    expect(confirmChoices(TROITSK_M, [TROITSK_CH, TROITSK_M, TROITSKOE])).toEqual([TROITSK_M, TROITSK_CH]);
  });

  it('weighs a far pick against the town the text names', () => {
    expect(confirmChoices(ZELENOGRADSK, [ZELENOGRAD, ZELENOGRADSK])).toEqual([ZELENOGRADSK, ZELENOGRAD]);
  });

  it('a chosen place needs nothing more', () => {
    expect(chosen(TROITSK_M)).toEqual({
      text: 'Троицк',
      status: 'recognised',
      match: { ...TROITSK_M, confirm: null },
      closest: [],
    });
  });
});

describe('replacesText', () => {
  it('replaces a short form, layout or index by the name, never the name itself', () => {
    expect(replacesText(place('Санкт-Петербург', '', 'alias'))).toBe(true);
    expect(replacesText(place('Казань', '', 'postal'))).toBe(true);
    expect(replacesText(ZELENOGRAD)).toBe(false);
    expect(replacesText(ZELENOGRADSK)).toBe(false);
  });
});
