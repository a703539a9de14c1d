// Box presets from settings (ui.box_presets, a JSON list). Pure: unit-tested in Node.
import { parseCm } from '../../lib/parse';
import type { QuoteDraft } from './logic';

export interface BoxPreset {
  name: string;
  length_cm: number;
  width_cm: number;
  height_cm: number;
}

/** A bad or missing value gives no presets (the form still takes sizes by hand). */
export function parseBoxPresets(json: string): BoxPreset[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= 1000;
  return raw.filter(
    (p): p is BoxPreset =>
      !!p &&
      typeof p === 'object' &&
      typeof (p as BoxPreset).name === 'string' &&
      (p as BoxPreset).name !== '' &&
      ok((p as BoxPreset).length_cm) &&
      ok((p as BoxPreset).width_cm) &&
      ok((p as BoxPreset).height_cm),
  );
}

/** The preset whose sizes the form shows now, if any (the box picker then names it). */
export function presetMatching(
  presets: readonly BoxPreset[],
  d: Pick<QuoteDraft, 'length' | 'width' | 'height'>,
): BoxPreset | undefined {
  const l = parseCm(d.length);
  const w = parseCm(d.width);
  const h = parseCm(d.height);
  if (!l.ok || !w.ok || !h.ok) return undefined;
  return presets.find((p) => p.length_cm === l.value && p.width_cm === w.value && p.height_cm === h.value);
}
