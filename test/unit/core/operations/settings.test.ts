import { describe, expect, it } from 'vitest';
import {
  OperationError,
  getSetting,
  getSettings,
  resetSetting,
  setSetting,
} from '../../../../core/operations';
import { SETTINGS } from '../../../../core/settings/schema';
import { freshFolder } from '../../../helpers/store-fixtures';

async function adminError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe('settings', () => {
  it('lists every setting with its default when nothing is set', async () => {
    const { store, clock } = freshFolder();
    const all = await getSettings(store, clock);
    expect(all.map((s) => s.name)).toEqual(Object.keys(SETTINGS));
    for (const s of all) {
      expect(s.is_set).toBe(false);
      expect(s.value).toBe(s.secret ? '' : s.default);
    }
  });

  it('stores the canonical form of a valid value', async () => {
    const { store, clock } = freshFolder();
    expect(await setSetting(store, clock, { name: 'listener.port', value: '09000' })).toMatchObject({
      value: '9000',
      is_set: true,
      default: '8787',
    });
    expect(await store.settings.get('listener.port')).toBe('9000');
    expect((await getSetting(store, clock, { name: 'listener.port' })).value).toBe('9000');
  });

  it('keeps only deviations: setting the default value removes the row', async () => {
    const { store, clock } = freshFolder();
    await setSetting(store, clock, { name: 'sandbox', value: 'off' });
    expect(await setSetting(store, clock, { name: 'sandbox', value: 'on' })).toMatchObject({
      value: 'on',
      is_set: false,
    });
    expect(await store.settings.get('sandbox')).toBeUndefined();
  });

  it('masks secrets everywhere it returns them', async () => {
    const { store, clock } = freshFolder();
    const secret = 'cdek-secure-password-42';
    const set = await setSetting(store, clock, { name: 'carriers.cdek.client_secret', value: secret });
    expect(set).toMatchObject({ value: '••••d-42', is_set: true, secret: true });
    expect((await getSetting(store, clock, { name: 'carriers.cdek.client_secret' })).value).toBe('••••d-42');
    expect(JSON.stringify(await getSettings(store, clock))).not.toContain(secret);
    // The service needs the real value: the store has it.
    expect(await store.settings.get('carriers.cdek.client_secret')).toBe(secret);
  });

  it('rejects invalid values with the reason and leaves the old value', async () => {
    const { store, clock } = freshFolder();
    for (const [name, value] of [
      ['listener.port', '70000'],
      ['listener.port', 'http'],
      ['sandbox', 'yes'],
      ['carriers.cdek.base_url', 'ftp://x'],
      ['rating.deadline_ms', '99'],
    ] as const) {
      const error = await adminError(() => setSetting(store, clock, { name, value }));
      expect(error.code).toBe('invalid');
      expect(error.message.startsWith(`${name}:`)).toBe(true);
    }
    expect((await store.settings.all()).size).toBe(0);
  });

  it('names the valid settings when the name is unknown', async () => {
    const { store, clock } = freshFolder();
    for (const fn of [
      () => getSetting(store, clock, { name: 'listener.prot' }),
      () => setSetting(store, clock, { name: 'listener.prot', value: '1' }),
      () => resetSetting(store, clock, { name: 'listener.prot' }),
    ]) {
      const error = await adminError(fn);
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('Unknown setting "listener.prot"');
      expect(error.message).toContain('listener.port');
    }
  });

  it('resets to the default', async () => {
    const { store, clock } = freshFolder();
    await setSetting(store, clock, { name: 'ui.language', value: 'en' });
    expect(await resetSetting(store, clock, { name: 'ui.language' })).toMatchObject({
      value: 'ru',
      is_set: false,
    });
    expect(await store.settings.get('ui.language')).toBeUndefined();
  });
});
