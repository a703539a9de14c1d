// The real desktop app through Playwright's _electron: launch, the window's security settings, the page's
// view of the world (no Node, only window.ratedesk), blocked navigation, and one sandbox quote end to end
// through preload → IPC → core. Runs where the Electron binary is installed; reported as skipped elsewhere
// (it cannot be downloaded on the machine this project is built on).
// Needs: the Playwright project "electron" (testDir test/e2e/electron); on Linux without a display, run
// under xvfb-run. Builds dist/ itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { findElectronBinary } from '../../../scripts/electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const binary = (findElectronBinary as () => string | null)();

test.skip(
  !binary,
  'Electron runtime not installed on this machine (its binary cannot be downloaded here); runs where Electron is present',
);

const SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};

let app: ElectronApplication;
let page: Page;
let dataDir: string;

function run(args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  run([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
  run([join(root, 'scripts', 'build-electron.mjs')]);

  dataDir = mkdtempSync(join(tmpdir(), 'ratedesk-electron-e2e-'));
  const env = { ...process.env, RATEDESK_DATA_DIR: dataDir };
  // Any free port for /v1, so a RateDesk already running on 8787 does not matter.
  run(
    ['--import', 'tsx', join(root, 'core', 'cli', 'admin.ts'), 'settings', 'set', 'listener.port', '0'],
    env,
  );

  app = await electron.launch({
    executablePath: binary!,
    // Chromium refuses to start as root without this; the page-level sandbox (sandbox: true) is unaffected.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
    env: { ...env, ELECTRON_ENABLE_LOGGING: '1' },
    cwd: root,
  });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
});

test.afterAll(async () => {
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('opens one RateDesk window from app://ratedesk/ with the secure web preferences', async () => {
  const info = await app.evaluate(({ BrowserWindow }) => {
    const windows = BrowserWindow.getAllWindows();
    const prefs = windows[0]!.webContents.getLastWebPreferences();
    return {
      count: windows.length,
      title: windows[0]!.getTitle(),
      url: windows[0]!.webContents.getURL(),
      contextIsolation: prefs?.contextIsolation,
      sandbox: prefs?.sandbox,
      nodeIntegration: prefs?.nodeIntegration,
      webSecurity: prefs?.webSecurity,
      webviewTag: prefs?.webviewTag,
    };
  });
  expect(info).toEqual({
    count: 1,
    title: 'RateDesk',
    url: 'app://ratedesk/index.html',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
  });
});

test('gives the page window.ratedesk and nothing of Node or Electron', async () => {
  const seen = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    let evalAllowed = true;
    try {
      // The CSP has no 'unsafe-eval'.
      new Function('return 1')();
    } catch {
      evalAllowed = false;
    }
    return {
      require: typeof w.require,
      process: typeof w.process,
      module: typeof w.module,
      ipcRenderer: typeof w.ipcRenderer,
      ratedesk: typeof w.ratedesk,
      areas: Object.keys((w.ratedesk ?? {}) as object).sort(),
      evalAllowed,
    };
  });
  expect(seen).toMatchObject({
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
    ipcRenderer: 'undefined',
  });
  expect(seen.ratedesk).toBe('object');
  expect(seen.areas).toEqual(
    expect.arrayContaining(['quote', 'history', 'carriers', 'accounts', 'keys', 'settings', 'on']),
  );
  expect(seen.evalAllowed).toBe(false);
});

test('warms the core up after start (#17): the main log says so', async () => {
  const logs = await app.evaluate(({ app: electronApp }) => electronApp.getPath('logs'));
  await expect
    .poll(() => {
      try {
        return readFileSync(join(logs, 'main.log'), 'utf8');
      } catch {
        return '';
      }
    })
    .toContain('warm-up done');
});

test('runs one sandbox quote end to end through preload, IPC and the core', async () => {
  const result = await page.evaluate(async (shipment) => {
    const api = (
      window as unknown as {
        ratedesk: {
          quote: { run(i: unknown): Promise<unknown> };
          on: { quoteProgress(cb: (p: unknown) => void): () => void };
        };
      }
    ).ratedesk;
    const progress: unknown[] = [];
    const off = api.on.quoteProgress((p) => progress.push(p));
    const r = (await api.quote.run({ quoteKey: 'electron-e2e', shipment })) as
      | { ok: true; value: { sandbox: boolean; rates: Array<{ price_kopecks: number }> } }
      | { ok: false; error: { code: string; message: string } };
    off();
    return { r, progress: progress.length };
  }, SHIPMENT);
  expect(result.r.ok).toBe(true);
  if (result.r.ok) {
    expect(result.r.value.sandbox).toBe(true);
    expect(result.r.value.rates.length).toBeGreaterThan(0);
  }
  expect(result.progress).toBeGreaterThan(0);
});

test('stays on its page: navigation and new windows are blocked, http(s) links go to the browser', async () => {
  // Record instead of really starting the user's browser.
  await app.evaluate(({ shell }) => {
    const opened: string[] = [];
    (globalThis as unknown as { opened: string[] }).opened = opened;
    shell.openExternal = async (url: string) => {
      opened.push(url);
    };
  });
  await page.evaluate(() => {
    window.open('https://example.com/', '_blank');
    window.open('file:///etc/passwd', '_blank');
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe('app://ratedesk/index.html');
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  expect(await app.evaluate(() => (globalThis as unknown as { opened: string[] }).opened)).toEqual([
    'https://example.com/',
  ]);
});
