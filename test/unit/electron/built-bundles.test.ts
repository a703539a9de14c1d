// The built files, as Electron would load them. No Electron binary here, so:
//  - main.cjs runs in Node under a simulated `electron` module (helpers/simulated-electron.mjs) with the real
//    core, protocol handler, IPC wrapper and desk handlers;
//  - preload.cjs runs in a VM context whose require() offers only what a sandboxed preload gets.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskChannels, deskEvents, DESK_API_GLOBAL } from '../../../core/desk/contract';
import { openStore } from '../../../core/store';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dist = join(root, 'dist', 'electron');

beforeAll(() => {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-electron.mjs')], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(build.status, build.stderr).toBe(0);
}, 60_000);

describe('dist/electron/preload.cjs', () => {
  it('is one file that needs nothing but electron, and exposes the desk API on window.ratedesk', async () => {
    const code = readFileSync(join(dist, 'preload.cjs'), 'utf8');
    const required: string[] = [];
    const exposed: Array<[string, unknown]> = [];
    const invoked: Array<[string, unknown]> = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) },
      ipcRenderer: {
        invoke: async (channel: string, input: unknown) => {
          invoked.push([channel, input]);
          return { ok: true, value: null };
        },
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
    // The sandboxed preload's require knows electron, events, timers and url; we allow electron only.
    const sandboxRequire = (id: string): unknown => {
      required.push(id);
      if (id === 'electron') return electron;
      throw new Error(`module not found: ${id}`);
    };
    const module = { exports: {} };
    const context = createContext({ require: sandboxRequire, module, exports: module.exports, console });
    runInContext(code, context, { filename: 'preload.cjs' });

    expect([...new Set(required)]).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    const [key, api] = exposed[0]!;
    expect(key).toBe(DESK_API_GLOBAL);
    const shape = api as Record<string, Record<string, (x?: unknown) => Promise<unknown>>>;
    const count = Object.entries(shape)
      .filter(([area]) => area !== 'on')
      .reduce((n, [, fns]) => n + Object.keys(fns).length, 0);
    expect(count).toBe(Object.keys(deskChannels).length);
    expect(Object.keys(shape.on!)).toHaveLength(Object.keys(deskEvents).length);
    await shape.accounts!.topup!({ account: 'default', requests: 5 });
    expect(invoked).toEqual([['accounts:topup', { account: 'default', requests: 5 }]]);
  });
});

describe('dist/electron/main.cjs under a simulated electron', () => {
  let dataDir: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the harness's JSON report
  let report: any;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ratedesk-main-'));
    // Port 0: never collide with a real RateDesk or a parallel test on 8787.
    const store = openStore(join(dataDir, 'ratedesk.db'));
    await store.settings.write([{ name: 'listener.port', value: '0' }], new Date().toISOString());
    await store.close();
    const run = spawnSync(
      process.execPath,
      [join(root, 'test', 'unit', 'electron', 'helpers', 'simulated-electron.mjs'), root],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, RATEDESK_DATA_DIR: dataDir },
        timeout: 30_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    report = JSON.parse(run.stdout);
  }, 60_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('registers app:// as a privileged standard, secure scheme before ready', () => {
    expect(report.schemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(report.protocolScheme).toBe('app');
    expect(report.permissionHandlers).toBe(3);
  });

  it('opens one secure window on app://ratedesk/ with the built preload', () => {
    expect(report.window.url).toBe('app://ratedesk/index.html');
    expect(report.window.preloadExists).toBe(true);
    expect(report.window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    expect(report.window.options).toMatchObject({
      title: 'RateDesk',
      show: false,
      minWidth: 1100,
      minHeight: 720,
    });
  });

  it('serves the renderer with the CSP and refuses traversal', () => {
    // 200 once `vite build` has run, 404 before; never anything else.
    expect([200, 404]).toContain(report.page.status);
    expect(report.page.csp).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(report.traversalStatus).toBe(400);
  });

  it('keeps its data, logs and Chromium profile in RATEDESK_DATA_DIR', () => {
    expect(report.userData).toBe(dataDir);
    expect(report.logs).toBe(join(dataDir, 'logs'));
    expect(report.info).toMatchObject({ ok: true, value: { dataDir, sandbox: true, version: '0.1.0' } });
    expect(report.info.value.listenerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers every contract channel through the IPC wrapper, and only those', () => {
    expect([...report.channels].sort()).toEqual(Object.keys(deskChannels).sort());
    expect(report.forbidden).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(report.invalid).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });

  it('runs a sandbox quote and pushes its progress to the window', () => {
    expect(report.quote).toMatchObject({ ok: true, sandbox: true });
    expect(report.quote.rates).toBeGreaterThan(0);
    expect(report.progressEvents).toBeGreaterThan(0);
  });

  it('stores the carrier secret encrypted', async () => {
    expect(report.secretMasked).toBe('••••4321');
    // The raw column: the store's own reader would open (here: refuse) the sealed value.
    const store = openStore(join(dataDir, 'ratedesk.db'));
    const stored = store.db
      .prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?')
      .get('carriers.cdek.client_secret')?.value;
    await store.close();
    expect(stored).toMatch(/^enc:/);
    expect(stored).not.toContain('simulated-secret');
  });

  it('blocks navigation and new windows, sending http(s) links to the browser', () => {
    expect(report.navigationBlocked).toBe(true);
    expect(report.windowOpen).toEqual({ action: 'deny' });
    expect(report.opened).toEqual(['https://www.cdek.ru/']);
  });

  it('closes the core on quit: handlers removed, folder lock released, no error dialog', () => {
    expect(report.lockedWhileRunning).toBe(true);
    expect(report.lockReleased).toBe(true);
    expect(report.channelsAfterQuit).toBe(0);
    expect(report.dialogs).toEqual([]);
    expect(report.exitCode).toBeNull();
  });
});
