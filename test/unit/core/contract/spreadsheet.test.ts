// core/contract/spreadsheet.ts: the text RateDesk hands to spreadsheets (files and the desk's clipboard copy).
import { describe, expect, it } from 'vitest';
import {
  daysText,
  defuseFormulas,
  roublesText,
  startsLikeFormula,
} from '../../../../core/contract/spreadsheet';
import * as csv from '../../../../core/operations/csv';

describe('spreadsheet text', () => {
  it('is the guard the CSV writer uses (one rule, not a copy)', () => {
    expect(csv.defuseFormulas).toBe(defuseFormulas);
    expect(csv.startsLikeFormula).toBe(startsLikeFormula);
  });

  it('writes roubles exactly, with the decimal separator asked for', () => {
    expect(roublesText(123450)).toBe('1234,50');
    expect(roublesText(123450, '.')).toBe('1234.50');
    expect(roublesText(5)).toBe('0,05');
    expect(roublesText(-101, '.')).toBe('-1.01');
  });

  it('writes days as a number or an en-dash range Excel does not read as a date', () => {
    expect(daysText(2, 4)).toBe('2–4');
    expect(daysText(3, 3)).toBe('3');
    expect(daysText(null, 5)).toBe('5');
    expect(daysText(2, undefined)).toBe('2');
    expect(daysText(null, null)).toBe('');
  });
});
