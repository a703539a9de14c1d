import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataFilePath,
  defaultDataDir,
  ensureDataFolder,
  seedDefaultAccount,
} from '../../../../core/store/data-folder';
import { listAccounts } from '../../../../core/operations';
import { TestClock, tempDir } from '../../../helpers/store-fixtures';

describe('defaultDataDir', () => {
  const home = '/home/olga';

  it('follows each OS convention', () => {
    expect(
      defaultDataDir({ env: { APPDATA: 'C:\\Users\\olga\\AppData\\Roaming' }, platform: 'win32', home }),
    ).toBe('C:\\Users\\olga\\AppData\\Roaming\\RateDesk');
    expect(defaultDataDir({ env: {}, platform: 'darwin', home })).toBe(
      '/home/olga/Library/Application Support/RateDesk',
    );
    expect(defaultDataDir({ env: {}, platform: 'linux', home })).toBe('/home/olga/.config/RateDesk');
    expect(defaultDataDir({ env: { XDG_CONFIG_HOME: '/data/xdg' }, platform: 'linux', home })).toBe(
      '/data/xdg/RateDesk',
    );
  });

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec requires', () => {
    expect(defaultDataDir({ env: { XDG_CONFIG_HOME: 'rel/dir' }, platform: 'linux', home })).toBe(
      '/home/olga/.config/RateDesk',
    );
  });

  it('is overridden by RATEDESK_DATA_DIR on every OS', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(defaultDataDir({ env: { RATEDESK_DATA_DIR: '/srv/ratedesk' }, platform, home })).toBe(
        '/srv/ratedesk',
      );
    }
  });

  it('names the data file ratedesk.db', () => {
    expect(dataFilePath('/x/y')).toBe(join('/x/y', 'ratedesk.db'));
  });
});

describe('ensureDataFolder', () => {
  it('creates a fresh folder with the default account (free, 100 requests), private files', async () => {
    const dir = join(tempDir(), 'nested', 'data');
    const clock = new TestClock();
    const { store, seeded } = ensureDataFolder(dir, { clock });
    try {
      expect(seeded).toBe(true);
      const accounts = await listAccounts(store, clock);
      expect(accounts).toHaveLength(1);
      expect(accounts[0]).toMatchObject({
        name: 'default',
        tier: 'free',
        balance: 100,
        limits: { rps: 2, burst: 5, source: 'tier' },
        threshold: 'auto', // #9: a fresh account is not "low" on day one
        last_package: null,
        created_at: '2025-03-01T10:00:00.000Z',
      });
      expect(await store.accounts.invariantViolations()).toEqual([]);
      if (process.platform !== 'win32') {
        expect(statSync(dir).mode & 0o777).toBe(0o700);
        expect(statSync(dataFilePath(dir)).mode & 0o777).toBe(0o600);
      }
    } finally {
      await store.close();
    }
  });

  it('seeds only once: reopening keeps the data and adds nothing', async () => {
    const dir = tempDir();
    const first = ensureDataFolder(dir);
    await first.store.accounts.topup(
      (await first.store.accounts.byName('default'))!.id,
      5,
      new Date().toISOString(),
    );
    await first.store.close();
    const second = ensureDataFolder(dir);
    try {
      expect(second.seeded).toBe(false);
      expect((await second.store.accounts.list()).map((a) => [a.name, a.balance])).toEqual([
        ['default', 105],
      ]);
      expect(seedDefaultAccount(second.store)).toBe(false);
    } finally {
      await second.store.close();
    }
  });
});
