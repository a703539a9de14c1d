import { describe, expect, it } from 'vitest';
import { base64ToBytes, describeChange } from '../../../../../../renderer/src/features/history/logic';

describe('history helpers', () => {
  it('describes price changes', () => {
    expect(describeChange({ before_kopecks: 100, after_kopecks: 150 })).toEqual({ kind: 'up', delta: 50 });
    expect(describeChange({ before_kopecks: 150, after_kopecks: 100 })).toEqual({ kind: 'down', delta: -50 });
    expect(describeChange({ before_kopecks: 100, after_kopecks: 100 })).toEqual({ kind: 'same', delta: 0 });
    expect(describeChange({ before_kopecks: null, after_kopecks: 100 })).toEqual({
      kind: 'new',
      delta: null,
    });
    expect(describeChange({ before_kopecks: 100, after_kopecks: null })).toEqual({
      kind: 'gone',
      delta: null,
    });
  });

  it('decodes export files', () => {
    expect([...base64ToBytes(Buffer.from('Привет').toString('base64'))]).toEqual([...Buffer.from('Привет')]);
  });
});
