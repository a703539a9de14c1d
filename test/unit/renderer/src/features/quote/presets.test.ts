import { describe, expect, it } from 'vitest';
import { parseBoxPresets, presetMatching } from '../../../../../../renderer/src/features/quote/presets';
import { SETTINGS } from '../../../../../../core/settings/schema';

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
