// The customer's price (#21): markup, packaging, rounding up, the minimum and maximum, and the rule chosen.
import { describe, expect, it } from 'vitest';
import { PricingRule, type PricingRuleInput } from '../../../../core/contract/pricing';
import { customerPrice, ruleFor } from '../../../../core/quote/resale';

const rule = (fields: Partial<PricingRuleInput> = {}): PricingRule =>
  PricingRule.parse({ account_id: null, carrier: null, ...fields });

describe('customerPrice', () => {
  it('is null without a rule, and the carrier price itself under an empty one (0 %)', () => {
    expect(customerPrice(null, 123_456)).toBeNull();
    expect(customerPrice(rule(), 123_456)).toBe(123_456);
    expect(customerPrice(rule({ markup_percent: 0, rounding: 'none' }), 0)).toBe(0);
  });

  it('counts a part kopeck of the percentage as a whole one', () => {
    // 101 kopecks × 10 % = 10.1 kopecks → 11.
    expect(customerPrice(rule({ markup_percent: 10 }), 101)).toBe(112);
    // 1 kopeck × 0.01 % is a ten-thousandth of a kopeck: still one more.
    expect(customerPrice(rule({ markup_percent: 0.01 }), 1)).toBe(2);
  });

  it('is never a kopeck off through a float: 12.35 % and 0.1 + 0.2 style percentages', () => {
    // 12.35 * 100 is 1234.9999999999998 in floats; 100 000 × 12.35 % is exactly 12 350.
    expect(customerPrice(rule({ markup_percent: 12.35 }), 100_000)).toBe(112_350);
    // 1 000 × 0.3 % = 3 exactly (0.1 + 0.2 = 0.30000000000000004 would make it 4).
    expect(customerPrice(rule({ markup_percent: 0.1 + 0.2 }), 1_000)).toBe(1_003);
    expect(customerPrice(rule({ markup_percent: 7.25 }), 40_000)).toBe(42_900);
    // 3 660 800 ₽ × 633.07 % is exactly 23 175 426,56 ₽; a float sum of it came out a kopeck more.
    expect(customerPrice(rule({ markup_percent: 633.07 }), 366_080_000)).toBe(2_683_622_656);
    expect(customerPrice(rule({ markup_percent: 739.5 }), 36_004_994_056_319)).toBe(302_261_925_102_799);
  });

  it('adds percentage, fixed markup and packaging, then rounds the sum up', () => {
    // 1 234,56 ₽ + 15 % (185,184 → 185,19) + 50 ₽ + 30 ₽ = 1 499,75 ₽ → 1 500 ₽ by 10 ₽.
    const r = rule({ markup_percent: 15, markup_kopecks: 5_000, packaging_kopecks: 3_000, rounding: '10' });
    expect(customerPrice(r, 123_456)).toBe(150_000);
    // The percentage is of the carrier's price only, not of the packaging.
    expect(customerPrice(rule({ markup_percent: 100, packaging_kopecks: 1_000 }), 1_000)).toBe(3_000);
  });

  it.each([
    ['1', 123_401, 123_500],
    ['1', 123_499, 123_500],
    ['5', 123_456, 123_500],
    ['5', 120_001, 120_500],
    ['10', 120_001, 121_000],
    ['10', 129_999, 130_000],
    ['10', 1, 1_000],
  ] as const)('rounds up to %s ₽: %i → %i', (rounding, price, expected) => {
    expect(customerPrice(rule({ rounding }), price)).toBe(expected);
  });

  it.each(['1', '5', '10'] as const)('leaves an exact multiple of %s ₽ as it is', (rounding) => {
    expect(customerPrice(rule({ rounding }), 150_000)).toBe(150_000);
    expect(customerPrice(rule({ rounding }), 0)).toBe(0);
    // 1 000 ₽ + 50 % = 1 500 ₽ exactly: not one step more.
    expect(customerPrice(rule({ rounding, markup_percent: 50 }), 100_000)).toBe(150_000);
  });

  it('raises a price below the minimum to it, even after rounding', () => {
    const r = rule({ rounding: '10', min_kopecks: 30_000 });
    expect(customerPrice(r, 12_345)).toBe(30_000);
    expect(customerPrice(r, 29_001)).toBe(30_000);
    expect(customerPrice(r, 30_001)).toBe(31_000);
  });

  it('holds a price above the maximum to it: the maximum wins over rounding', () => {
    const r = rule({ markup_percent: 20, rounding: '10', max_kopecks: 200_000 });
    expect(customerPrice(r, 199_000)).toBe(200_000);
    expect(customerPrice(r, 150_000)).toBe(180_000);
    expect(customerPrice(rule({ max_kopecks: 99_999 }), 100_000)).toBe(99_999);
  });

  it('gives the one price when the minimum equals the maximum', () => {
    const r = rule({ markup_percent: 30, min_kopecks: 50_000, max_kopecks: 50_000, rounding: '5' });
    for (const price of [0, 1, 38_461, 50_000, 9_999_999]) expect(customerPrice(r, price)).toBe(50_000);
  });

  it('stays exact for huge prices and the largest markups', () => {
    const r = rule({
      markup_percent: 1000,
      markup_kopecks: 10_000_000_00,
      packaging_kopecks: 10_000_000_00,
      rounding: '10',
    });
    // 10^14 kopecks × 11 + 2·10^9 = 1 100 002 000 000 000: already a multiple of 10 ₽.
    expect(customerPrice(r, 100_000_000_000_000)).toBe(1_100_002_000_000_000);
    // 123 456 789 012 345 kopecks + 0.01 %: 12 345 678 901.2345 → …902, exact past float precision of ×1e6.
    expect(customerPrice(rule({ markup_percent: 0.01 }), 123_456_789_012_345)).toBe(123_469_134_691_247);
    // Past 2^53 kopecks nothing is real, but the answer is still a safe integer.
    expect(customerPrice(r, Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('PricingRule', () => {
  it('fills the defaults: no markup, no limits, no rounding', () => {
    expect(rule({ account_id: 3, carrier: 'cdek' })).toEqual({
      account_id: 3,
      carrier: 'cdek',
      markup_percent: 0,
      markup_kopecks: 0,
      packaging_kopecks: 0,
      min_kopecks: null,
      max_kopecks: null,
      rounding: 'none',
    });
  });

  it.each([
    [{ markup_percent: 12.345 }, 'markup_percent', 'more than two decimals'],
    [{ markup_percent: -1 }, 'markup_percent', ''],
    [{ markup_percent: 1000.01 }, 'markup_percent', ''],
    [{ min_kopecks: 20_000, max_kopecks: 10_000 }, 'max_kopecks', 'below the minimum'],
    [{ rounding: '10', min_kopecks: 29_990 }, 'min_kopecks', 'multiple of the rounding step'],
    [{ rounding: '5', max_kopecks: 100_100 }, 'max_kopecks', 'multiple of the rounding step'],
    [{ markup_kopecks: 1.5 }, 'markup_kopecks', ''],
    [{ packaging_kopecks: 10_000_000_01 }, 'packaging_kopecks', ''],
  ] as const)('refuses %o at %s', (fields, path, message) => {
    const parsed = PricingRule.safeParse({ account_id: null, carrier: null, ...fields });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((i) => i.path[0] === path);
    expect(issue?.message).toContain(message);
  });

  it('accepts two decimals of a percent and limits on the step', () => {
    expect(
      rule({ markup_percent: 12.35, rounding: '10', min_kopecks: 30_000, max_kopecks: 30_000 }),
    ).toMatchObject({ markup_percent: 12.35 });
  });
});

describe('ruleFor', () => {
  const all = rule({ markup_percent: 10 });
  const cdek = rule({ carrier: 'cdek', markup_percent: 20 });
  it('takes the carrier’s own rule over the account’s rule for every carrier, in any order', () => {
    expect(ruleFor([all, cdek], 'cdek')).toBe(cdek);
    expect(ruleFor([cdek, all], 'cdek')).toBe(cdek);
    expect(ruleFor([all, cdek], 'pek')).toBe(all);
    expect(ruleFor([cdek], 'pek')).toBeNull();
    expect(ruleFor([], 'cdek')).toBeNull();
  });
});
