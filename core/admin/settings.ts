// Settings as an admin sees them: every known setting with its effective value, secrets masked.
import { z } from 'zod';
import { SETTINGS, isSettingName, maskSecret, parseSetting, type SettingName } from '../settings/schema';
import type { Store } from '../store';
import { parseInput, type WallClock } from './common';
import { AdminError } from './errors';

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export const GetSettingInput = z.strictObject({ name: z.string().min(1) });
export const SetSettingInput = z.strictObject({ name: z.string().min(1), value: z.string().max(10_000) });
export const ResetSettingInput = GetSettingInput;

export interface SettingView {
  name: SettingName;
  /** Effective value (stored or default); a secret is masked. */
  value: string;
  default: string;
  /** True when a value other than the default is stored. */
  is_set: boolean;
  secret: boolean;
  doc: string;
}

function knownName(name: string): SettingName {
  if (!isSettingName(name)) {
    throw new AdminError(
      'not_found',
      `Unknown setting ${JSON.stringify(name)}. Valid names: ${SETTING_NAMES.join(', ')}.`,
    );
  }
  return name;
}

function view(name: SettingName, stored: string | undefined): SettingView {
  const def = SETTINGS[name];
  const value = stored ?? def.default;
  return {
    name,
    value: def.secret ? maskSecret(value) : value,
    default: def.default,
    is_set: stored !== undefined,
    secret: def.secret,
    doc: def.doc,
  };
}

export function getSettings(store: Store, _clock: WallClock): SettingView[] {
  const stored = store.settings.all();
  return SETTING_NAMES.map((name) => view(name, stored.get(name)));
}

export function getSetting(
  store: Store,
  _clock: WallClock,
  input: z.input<typeof GetSettingInput>,
): SettingView {
  const name = knownName(parseInput(GetSettingInput, input).name);
  return view(name, store.settings.get(name));
}

/**
 * Stores the canonical form of a valid value. A value equal to the default removes the row instead: the
 * table holds only deviations (settings/schema.ts), so a later change of default reaches every untouched setting.
 */
export function setSetting(
  store: Store,
  clock: WallClock,
  input: z.input<typeof SetSettingInput>,
): SettingView {
  const parsed = parseInput(SetSettingInput, input);
  const name = knownName(parsed.name);
  const r = parseSetting(name, parsed.value);
  if (!r.ok) throw new AdminError('invalid', r.error);
  return store.tx(() => {
    if (r.value === SETTINGS[name].default) store.settings.delete(name);
    else store.settings.set(name, r.value, clock.now().toISOString());
    return view(name, store.settings.get(name));
  });
}

export function resetSetting(
  store: Store,
  _clock: WallClock,
  input: z.input<typeof ResetSettingInput>,
): SettingView {
  const name = knownName(parseInput(ResetSettingInput, input).name);
  return store.tx(() => {
    store.settings.delete(name);
    return view(name, undefined);
  });
}
