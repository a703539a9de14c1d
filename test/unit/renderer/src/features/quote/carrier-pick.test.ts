// #17 item 6: the carrier picker's rules. «только» is one action; the closed picker's text never grows
// with the ticks (a growing label pushed the fields beside it).
import { describe, expect, it } from 'vitest';
import {
  onlyCarrier,
  pickerSummary,
  tickedCodes,
  toggleCarrier,
} from '../../../../../../renderer/src/features/quote/carrier-pick';

const CARRIERS = [
  { code: 'cdek', name: 'СДЭК' },
  { code: 'russian-post', name: 'Почта России' },
  { code: 'boxberry', name: 'Boxberry' },
  { code: 'yandex', name: 'Яндекс Доставка' },
];
const words = { all: 'все', count: (n: number, total: number) => `${n} из ${total}` };

describe('the carrier picker', () => {
  it('reads null and [] as every carrier', () => {
    expect([...tickedCodes(null, CARRIERS)]).toEqual(['cdek', 'russian-post', 'boxberry', 'yandex']);
    expect(tickedCodes([], CARRIERS).size).toBe(4);
  });

  it('unticks and ticks in the carriers’ order; all or none is null again', () => {
    expect(toggleCarrier(null, CARRIERS, 'boxberry', false)).toEqual(['cdek', 'russian-post', 'yandex']);
    expect(toggleCarrier(['yandex'], CARRIERS, 'cdek', true)).toEqual(['cdek', 'yandex']);
    expect(toggleCarrier(['cdek'], CARRIERS, 'cdek', false)).toBeNull();
    expect(toggleCarrier(['cdek', 'russian-post', 'boxberry'], CARRIERS, 'yandex', true)).toBeNull();
  });

  it('«только» picks one carrier in one step', () => {
    expect(onlyCarrier(CARRIERS, 'cdek')).toEqual(['cdek']);
    // With a single carrier, "only this one" is all of them.
    expect(onlyCarrier([CARRIERS[0]!], 'cdek')).toBeNull();
  });

  it('says «все», a name or «n из m», never the growing list (that goes in the title)', () => {
    expect(pickerSummary(null, CARRIERS, words)).toEqual({ text: 'все', title: 'все' });
    expect(pickerSummary(['cdek'], CARRIERS, words)).toEqual({ text: 'СДЭК', title: 'СДЭК' });
    expect(pickerSummary(['cdek', 'yandex', 'boxberry'], CARRIERS, words)).toEqual({
      text: '3 из 4',
      title: 'СДЭК, Boxberry, Яндекс Доставка',
    });
    // A code the list does not know yet (the list is still loading) is shown, not read as «все».
    expect(pickerSummary(['dpd'], [], words)).toEqual({ text: 'dpd', title: 'dpd' });
  });
});
