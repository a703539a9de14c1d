// The resale rule form's logic (#21): roubles and percentages read exactly, each problem in its field, the
// contract's own rules said before the round trip, a stored rule back into the fields, and the preview.
import { describe, expect, it } from 'vitest';
import { PricingSetInput } from '../../../../../../core/contract/operations/pricing';
import {
  checkResale,
  EMPTY_RESALE,
  readPercent,
  readRoubles,
  resaleDraftOf,
  type ResaleDraft,
} from '../../../../../../renderer/src/features/settings/resale-form';
import { percentText, previewOf } from '../../../../../../renderer/src/features/settings/resale-view';

const draft = (d: Partial<ResaleDraft>): ResaleDraft => ({ ...EMPTY_RESALE, ...d });

describe('readRoubles / readPercent', () => {
  it('reads roubles exactly, with spaces, a comma or a dot and a ₽', () => {
    expect(readRoubles('')).toEqual({ ok: true, value: null });
    expect(readRoubles('1 234,50')).toEqual({ ok: true, value: 123_450 });
    expect(readRoubles('1\u202f234.5 ₽')).toEqual({ ok: true, value: 123_450 });
    expect(readRoubles('0,1')).toEqual({ ok: true, value: 10 });
    expect(readRoubles('10000000')).toEqual({ ok: true, value: 1_000_000_000 });
    expect(readRoubles('10000000,01')).toEqual({ ok: false, error: 'range' });
    expect(readRoubles('1,234')).toEqual({ ok: false, error: 'precision' });
    expect(readRoubles('-5')).toEqual({ ok: false, error: 'format' });
    expect(readRoubles('пять')).toEqual({ ok: false, error: 'format' });
  });

  it('reads a percentage to two decimals, 0 when empty', () => {
    expect(readPercent('')).toEqual({ ok: true, value: 0 });
    expect(readPercent('12,35 %')).toEqual({ ok: true, value: 12.35 });
    expect(readPercent('1000')).toEqual({ ok: true, value: 1000 });
    expect(readPercent('1000,01')).toEqual({ ok: false, error: 'range' });
    expect(readPercent('12,345')).toEqual({ ok: false, error: 'percentPrecision' });
  });
});

describe('checkResale', () => {
  it('gives the operation’s input, which the operation’s own schema takes', () => {
    const checked = checkResale(
      draft({
        account: 'shop-1',
        carrier: 'cdek',
        percent: '7,25',
        add: '50',
        packaging: '30,50',
        max: '2 000',
      }),
    );
    expect(checked.errors).toEqual({});
    expect(checked.value).toEqual({
      account: 'shop-1',
      carrier: 'cdek',
      markup_percent: 7.25,
      markup_kopecks: 5_000,
      packaging_kopecks: 3_050,
      min_kopecks: null,
      max_kopecks: 200_000,
      rounding: 'none',
    });
    expect(PricingSetInput.safeParse(checked.value).success).toBe(true);
    expect(checkResale(EMPTY_RESALE).value).toMatchObject({
      account: null,
      carrier: null,
      markup_percent: 0,
    });
  });

  it('names each problem in its field, as the contract would refuse it', () => {
    const cases: Array<[Partial<ResaleDraft>, Record<string, string>]> = [
      [
        { percent: 'x', add: '1,234' },
        { percent: 'format', add: 'precision' },
      ],
      [
        { rounding: '10', min: '299,90', max: '1005' },
        { min: 'step', max: 'step' },
      ],
      [{ min: '500', max: '400' }, { max: 'maxBelowMin' }],
      [{ rounding: '5', min: '500', max: '400' }, { max: 'maxBelowMin' }],
    ];
    for (const [d, errors] of cases) {
      const checked = checkResale(draft(d));
      expect(checked.errors).toEqual(errors);
      expect(checked.value).toBeNull();
    }
  });
});

describe('resaleDraftOf', () => {
  it('puts a stored rule back into the fields in the language’s decimals, none left empty', () => {
    const rule = {
      account: null,
      account_id: null,
      carrier: 'pek',
      markup_percent: 12.5,
      markup_kopecks: 0,
      packaging_kopecks: 3_050,
      min_kopecks: null,
      max_kopecks: 150_000,
      rounding: '10' as const,
    };
    expect(resaleDraftOf(rule, 'ru')).toEqual({
      account: '',
      carrier: 'pek',
      percent: '12,5',
      add: '',
      packaging: '30,50',
      min: '',
      max: '1500',
      rounding: '10',
    });
    expect(resaleDraftOf(rule, 'en').percent).toBe('12.5');
    // And back: the same rule.
    expect(checkResale(resaleDraftOf(rule, 'ru')).value).toMatchObject({
      markup_percent: 12.5,
      packaging_kopecks: 3_050,
      max_kopecks: 150_000,
    });
  });
});

describe('preview', () => {
  it('shows what the customer pays for 250, 1 000 and 5 000 ₽, and nothing for an invalid rule', () => {
    const value = checkResale(draft({ percent: '15', rounding: '10', min: '300' })).value;
    expect(previewOf(value)).toEqual([
      { from: 25_000, to: 30_000 },
      { from: 100_000, to: 115_000 },
      { from: 500_000, to: 575_000 },
    ]);
    expect(previewOf(null)).toBeNull();
    expect(percentText(7.25, 'ru')).toBe('7,25');
    expect(percentText(7.25, 'en')).toBe('7.25');
  });
});
