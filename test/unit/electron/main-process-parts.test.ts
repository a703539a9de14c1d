// The smaller main-process modules: low-balance notifications, where the Electron-ABI SQLite build is
// looked for, the app layout, and starting the core when the listener's port is taken.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LowBalanceEvent } from '../../../core/store/port';
import { appLayout, dataFolder } from '../../../electron/main/app-paths';
import {
  findNativeBinding,
  isAbiMismatch,
  nativeBindingCandidates,
} from '../../../electron/main/native-sqlite';
import {
  lowBalanceFromDesk,
  lowBalanceNotifier,
  lowBalanceText,
  requestsRu,
} from '../../../electron/main/notifications';
import { startRatingService } from '../../../electron/main/rating-service';

const LOW: LowBalanceEvent = {
  accountId: 1,
  accountName: 'warehouse',
  threshold: 100,
  balance: 99,
  at: '2026-01-01T00:00:00Z',
};

describe('low-balance notification', () => {
  it('uses the right Russian plural', () => {
    expect([1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1001].map(requestsRu)).toEqual([
      '1 запрос',
      '2 запроса',
      '4 запроса',
      '5 запросов',
      '11 запросов',
      '12 запросов',
      '14 запросов',
      '21 запрос',
      '22 запроса',
      '25 запросов',
      '101 запрос',
      '111 запросов',
      `${(1001).toLocaleString('ru-RU')} запрос`,
    ]);
  });

  it('speaks the UI language', () => {
    expect(lowBalanceText(LOW, 'ru')).toEqual({
      title: 'RateDesk: заканчиваются запросы',
      body: 'Аккаунт warehouse: осталось 99 запросов (порог 100). Пополните баланс в разделе «Баланс».',
    });
    expect(lowBalanceText({ ...LOW, balance: 1 }, 'en').body).toBe(
      'Account warehouse: 1 request left (alert at 100). Top it up under Balance.',
    );
  });

  it('names the default account in the UI language, as the window does (#9)', () => {
    expect(lowBalanceText({ ...LOW, accountName: 'default' }, 'ru').body).toMatch(/^Аккаунт Основной: /);
    expect(lowBalanceText({ ...LOW, accountName: 'default' }, 'en').body).toMatch(/^Account Main: /);
    // The desk event (a company server's too, #20) words the same notification.
    const desk = lowBalanceFromDesk({ account: 'warehouse', threshold: 100, balance: 99, at: LOW.at });
    expect(lowBalanceText(desk, 'ru')).toEqual(lowBalanceText(LOW, 'ru'));
  });

  it('shows a native notification that brings the window forward, when the system has them', () => {
    const shown: Array<{ title: string; body: string }> = [];
    let clickHandler: (() => void) | null = null;
    let focused = 0;
    const make = (supported: boolean) =>
      lowBalanceNotifier({
        notifications: {
          isSupported: () => supported,
          create: (o) => ({
            on: (_e: 'click', l: () => void) => (clickHandler = l),
            show: () => shown.push(o),
          }),
        },
        language: () => 'en',
        onClick: () => focused++,
      });
    make(false)(LOW);
    expect(shown).toEqual([]);
    make(true)(LOW);
    expect(shown).toHaveLength(1);
    clickHandler!();
    expect(focused).toBe(1);
  });
});

describe('native SQLite for Electron', () => {
  const places = { appPath: '/proj', resourcesPath: '/opt/RateDesk/resources' };

  it('looks in build/native/electron in development and in resources/native when packaged', () => {
    expect(nativeBindingCandidates({ ...places, isPackaged: false })).toEqual([
      join('/proj', 'build', 'native', 'electron', 'better_sqlite3.node'),
    ]);
    expect(nativeBindingCandidates({ ...places, isPackaged: true })).toEqual([
      join('/opt/RateDesk/resources', 'native', 'better_sqlite3.node'),
    ]);
  });

  it('returns the binding only when it exists, so better-sqlite3 otherwise uses its own build', () => {
    expect(findNativeBinding({ ...places, isPackaged: true }, () => false)).toBeUndefined();
    expect(findNativeBinding({ ...places, isPackaged: true }, () => true)).toBe(
      join('/opt/RateDesk/resources', 'native', 'better_sqlite3.node'),
    );
  });

  it('recognises the ABI mismatch message', () => {
    expect(
      isAbiMismatch(
        new Error(
          "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 140.",
        ),
      ),
    ).toBe(true);
    expect(isAbiMismatch(new Error('SQLITE_BUSY'))).toBe(false);
  });
});

describe('app layout', () => {
  it('matches what scripts/build-electron.mjs and vite build write', () => {
    expect(appLayout('/proj')).toEqual({
      preload: join('/proj', 'dist', 'electron', 'preload.cjs'),
      rendererRoot: join('/proj', 'dist', 'renderer'),
      icon: join('/proj', 'dist', 'electron', 'icon.png'),
    });
  });

  it('keeps data in <appData>/RateDesk (the folder serve and admin use) unless RATEDESK_DATA_DIR says otherwise', () => {
    expect(dataFolder({}, '/home/u/.config')).toBe(join('/home/u/.config', 'RateDesk'));
    expect(dataFolder({ RATEDESK_DATA_DIR: 'tmp/data' }, '/home/u/.config')).toBe(resolve('tmp/data'));
  });
});

describe('starting the core', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('opens without the listener when its port is taken, and says why', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const port = (blocker.address() as { port: number }).port;

    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-start-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const started = await startRatingService({ dataDir: dir, listen: { host: '127.0.0.1', port } });
    cleanup.push(() => started.service.close());

    expect(started.service.listener).toBeNull();
    expect(started.listenerError).toMatch(/EADDRINUSE/);
    expect((await started.service.store.accounts.list()).length).toBeGreaterThan(0);
    // Once the port is free, restarting the listener works without restarting the app.
    await new Promise<void>((r) => blocker.close(() => r()));
    const listener = await started.service.restartListener();
    expect(listener?.port).toBe(port);
    expect(started.service.listenerError).toBeNull();
  });

  it('passes any other start-up failure on', async () => {
    const boom = Object.assign(new Error('Another RateDesk (pid 1) is already serving /x'), {});
    await expect(startRatingService({ dataDir: '/x' }, async () => Promise.reject(boom))).rejects.toBe(boom);
  });
});
