import { describe, expect, it } from 'vitest';
import { base64ToBytes, describeChange, kindFromReason } from '../../../renderer/src/features/history/logic';
import { parseBoxPresets, presetMatching } from '../../../renderer/src/features/quote/presets';
import { reasonText } from '../../../core/rating/aggregator';
import { SETTINGS } from '../../../core/settings/schema';
import { UnavailableKind } from '../../../core/desk/contract';

describe('history helpers', () => {
  it('reads every core reason phrase back into its kind', () => {
    for (const kind of UnavailableKind.options) {
      expect(kindFromReason(reasonText({ kind, detail: 'something' }))).toBe(kind);
      expect(kindFromReason(reasonText({ kind }))).toBe(kind);
    }
    expect(kindFromReason('the moon is full')).toBeNull();
  });

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

describe('box presets', () => {
  it('parses the settings default and finds the preset the form shows', () => {
    const presets = parseBoxPresets(SETTINGS['ui.box_presets'].default);
    expect(presets.map((p) => p.name)).toEqual(['S', 'M', 'L', 'XL']);
    expect(presetMatching(presets, { length: '30', width: '20', height: '10' })?.name).toBe('M');
    expect(presetMatching(presets, { length: '30', width: '20', height: '11' })).toBeUndefined();
    expect(presetMatching(presets, { length: '30,0', width: '20', height: '10' })?.name).toBe('M');
  });

  it('drops what is not a preset', () => {
    expect(parseBoxPresets('not json')).toEqual([]);
    expect(parseBoxPresets('{"a":1}')).toEqual([]);
    expect(
      parseBoxPresets(
        '[{"name":"X","length_cm":0,"width_cm":1,"height_cm":1},{"name":"Y","length_cm":1,"width_cm":1,"height_cm":1}]',
      ).map((p) => p.name),
    ).toEqual(['Y']);
  });
});
