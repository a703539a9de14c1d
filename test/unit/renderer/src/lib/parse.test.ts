import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, formatRoublesInput } from '../../../../../renderer/src/lib/format';
import {
  parseCm,
  parseKgToGrams,
  parsePostalCode,
  parseRoublesToKopecks,
  parseWeightToGrams,
  splitDecimal,
} from '../../../../../renderer/src/lib/parse';

// #17 item 10: the way clerks type, unit and all.
describe('a unit typed after the number', () => {
  it.each([
    ['1,2 кг', 1200],
    ['1.2 kg', 1200],
    ['1,2кг', 1200],
    ['1,2 КГ', 1200],
    ['1.2 Kg.', 1200],
    ['1,2 килограмма', 1200],
    ['1200 г', 1200],
    ['1200г', 1200],
    ['1200 гр.', 1200],
    ['1 200 г', 1200],
    ['1200 g', 1200],
    ['1,2', 1200],
    ['0,5 г', 1],
    ['5 г', 5],
    ['0,005', 5],
  ])('weight «%s» → %d g', (text, grams) => {
    expect(parseWeightToGrams(text)).toEqual({ ok: true, value: grams });
  });

  it.each([
    ['кг', 'empty'],
    ['1,2 фунта', 'format'],
    ['0 г', 'range'],
    ['2000000 г', 'range'],
    ['1,2,3 кг', 'format'],
  ] as const)('weight «%s» is refused (%s)', (text, error) => {
    expect(parseWeightToGrams(text)).toEqual({ ok: false, error });
  });

  it.each([
    ['1500 руб', 150_000],
    ['1500 руб.', 150_000],
    ['1 500 ₽', 150_000],
    ['1500₽', 150_000],
    ['1500р', 150_000],
    ['1500 р.', 150_000],
    ['1500 рублей', 150_000],
    ['1 500,50 ₽', 150_050],
    ['1500 RUB', 150_000],
    ['1500', 150_000],
  ])('value «%s» → %d kopecks', (text, kopecks) => {
    expect(parseRoublesToKopecks(text)).toEqual({ ok: true, value: kopecks });
  });
});

describe('parseRoublesToKopecks', () => {
  it('converts exactly, with comma or dot and any kind of spaces', () => {
    expect(parseRoublesToKopecks('1 500,50')).toEqual({ ok: true, value: 150050 });
    expect(parseRoublesToKopecks('1\u00a0500,5')).toEqual({ ok: true, value: 150050 });
    expect(parseRoublesToKopecks('1\u202f500.05')).toEqual({ ok: true, value: 150005 });
    expect(parseRoublesToKopecks('0,1')).toEqual({ ok: true, value: 10 });
    expect(parseRoublesToKopecks('0,29')).toEqual({ ok: true, value: 29 });
    expect(parseRoublesToKopecks('1,15')).toEqual({ ok: true, value: 115 });
    expect(parseRoublesToKopecks(',5')).toEqual({ ok: true, value: 50 });
    expect(parseRoublesToKopecks('12,')).toEqual({ ok: true, value: 1200 });
    expect(parseRoublesToKopecks('007')).toEqual({ ok: true, value: 700 });
  });

  it('treats an empty field as zero (the value is optional)', () => {
    expect(parseRoublesToKopecks('')).toEqual({ ok: true, value: 0 });
    expect(parseRoublesToKopecks('   ')).toEqual({ ok: true, value: 0 });
  });

  it('refuses what is not money instead of guessing', () => {
    expect(parseRoublesToKopecks('1,505')).toEqual({ ok: false, error: 'precision' });
    expect(parseRoublesToKopecks('-5')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks('1.500,50')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks('12 долларов')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks('руб')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks('1e3')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks(',')).toEqual({ ok: false, error: 'format' });
    expect(parseRoublesToKopecks('1000000001')).toEqual({ ok: false, error: 'range' });
    expect(parseRoublesToKopecks('1000000000')).toEqual({ ok: true, value: 100_000_000_000 });
  });

  it('round-trips every kopeck amount through the field text (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (k) => {
        expect(parseRoublesToKopecks(formatRoublesInput(k))).toEqual({ ok: true, value: k });
        // A displayed price pasted back into the field gives the same kopecks, with its sign or without.
        expect(parseRoublesToKopecks(formatMoney(k).replace('₽', ''))).toEqual({ ok: true, value: k });
        expect(parseRoublesToKopecks(formatMoney(k))).toEqual({ ok: true, value: k });
      }),
    );
  });
});

describe('parseKgToGrams', () => {
  it('accepts the comma decimal', () => {
    expect(parseKgToGrams('1,2')).toEqual({ ok: true, value: 1200 });
    expect(parseKgToGrams('1.2')).toEqual({ ok: true, value: 1200 });
    expect(parseKgToGrams('0,35')).toEqual({ ok: true, value: 350 });
    expect(parseKgToGrams('12')).toEqual({ ok: true, value: 12000 });
    expect(parseKgToGrams('0,001')).toEqual({ ok: true, value: 1 });
  });

  it('rounds a finer reading up to the next gram', () => {
    expect(parseKgToGrams('1,2341')).toEqual({ ok: true, value: 1235 });
    expect(parseKgToGrams('1,2340')).toEqual({ ok: true, value: 1234 });
    expect(parseKgToGrams('0,0001')).toEqual({ ok: true, value: 1 });
  });

  it('refuses empty, zero, too heavy and non-numbers', () => {
    expect(parseKgToGrams('')).toEqual({ ok: false, error: 'empty' });
    expect(parseKgToGrams('0')).toEqual({ ok: false, error: 'range' });
    expect(parseKgToGrams('1000,001')).toEqual({ ok: false, error: 'range' });
    expect(parseKgToGrams('1000')).toEqual({ ok: true, value: 1_000_000 });
    expect(parseKgToGrams('abc')).toEqual({ ok: false, error: 'format' });
  });
});

describe('parseCm and parsePostalCode', () => {
  it('sides of the box', () => {
    expect(parseCm('30')).toEqual({ ok: true, value: 30 });
    expect(parseCm('12,5')).toEqual({ ok: true, value: 12.5 });
    expect(parseCm('12,55')).toEqual({ ok: false, error: 'precision' });
    expect(parseCm('0')).toEqual({ ok: false, error: 'range' });
    expect(parseCm('1001')).toEqual({ ok: false, error: 'range' });
    expect(parseCm('')).toEqual({ ok: false, error: 'empty' });
  });

  it('postal codes', () => {
    expect(parsePostalCode('420000')).toEqual({ ok: true, value: '420000' });
    expect(parsePostalCode('420 000')).toEqual({ ok: true, value: '420000' });
    expect(parsePostalCode('')).toEqual({ ok: true, value: null });
    expect(parsePostalCode('42000')).toEqual({ ok: false, error: 'format' });
  });

  it('splitDecimal', () => {
    expect(splitDecimal('00,50')).toEqual({ whole: '0', fraction: '50' });
    expect(splitDecimal('')).toBeNull();
  });
});
