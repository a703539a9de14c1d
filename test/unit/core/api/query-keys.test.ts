// #16 item 7: which pieces of a query are looked up as keys, and the bound on them.
import { describe, expect, it } from 'vitest';
import { keyShapedPieces, MAX_QUERY_KEY_PIECES } from '../../../../core/api/query-keys';

const KEY = 'legacy-9f8e7d6c5b4a3928+/=AbC';
const e = encodeURIComponent;

describe('keyShapedPieces', () => {
  it('finds a key as a value, a name, the whole query, as sent or encoded up to three times', () => {
    for (const query of [
      `x=${KEY}`,
      `x=${e(KEY)}`,
      `x=${e(e(e(KEY)))}`,
      `${e(KEY)}=1`,
      e(KEY),
      `a=1&b=${e(KEY)}&c=2`,
    ]) {
      expect(keyShapedPieces(query), query).toContain(KEY);
    }
  });

  it('keeps "+" as sent (a key may hold one) and splits a pair at its first "=" only', () => {
    expect(keyShapedPieces('x=abc+def=ghi+jkl0123456789')).toContain('abc+def=ghi+jkl0123456789');
  });

  it('looks at nothing in a short cache buster, and at a few pieces in a long one', () => {
    expect(keyShapedPieces('_=1700000000')).toEqual(new Set());
    expect(keyShapedPieces(`_=${e('2025-03-04T05:06:07.000Z')}`)!.size).toBeLessThanOrEqual(4);
  });

  it('gives up (undefined: the caller refuses) past the bound, without reading the rest', () => {
    const pair = (i: number) => `p${i}=${'v'.repeat(20)}${i}`;
    const fits = Array.from({ length: 7 }, (_, i) => pair(i)).join('&');
    expect(keyShapedPieces(fits)!.size).toBeLessThanOrEqual(MAX_QUERY_KEY_PIECES);
    const many = Array.from({ length: 800 }, (_, i) => pair(i)).join('&');
    expect(keyShapedPieces(many)).toBeUndefined();
  });

  it('does not decode a piece longer than a key encoded three times', () => {
    const long = `x=${'%2525'.repeat(400)}41`;
    expect([...(keyShapedPieces(long) ?? [])].every((p) => p.length <= 200 * 7)).toBe(true);
  });
});
