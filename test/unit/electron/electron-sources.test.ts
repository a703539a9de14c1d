// Rules about the Electron code that types cannot express, checked on the sources: one window factory,
// one caller of ipcMain.handle, no synchronous IPC, no file:// pages, and the preload touching only
// contextBridge and ipcRenderer (aesthetics.md §6; research/reliability.md §5 E-T2).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function sources(dir: string): Array<{ path: string; code: string }> {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => {
      const full = join(e.parentPath, e.name);
      return { path: relative(root, full).replace(/\\/g, '/'), code: readFileSync(full, 'utf8') };
    });
}

const ELECTRON = sources('electron');
/** Code without comments, so an explanation that mentions an API does not count as a use. */
const strip = (code: string): string => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const using = (pattern: RegExp): string[] =>
  ELECTRON.filter((f) => pattern.test(strip(f.code))).map((f) => f.path);

describe('electron/ sources', () => {
  it('create windows in windows.ts only (and no BrowserView or WebContentsView at all)', () => {
    expect(using(/new\s+BrowserWindow\b/)).toEqual(['electron/main/windows.ts']);
    expect(using(/\b(BrowserView|WebContentsView)\b/)).toEqual([]);
  });

  it('register IPC handlers in ipc.ts only, and never use synchronous IPC', () => {
    expect(using(/\.handle\(\s*channel/)).toEqual(['electron/main/ipc.ts']);
    expect(using(/ipcMain\.(on|once)\(/)).toEqual([]);
    expect(using(/sendSync|ipcRenderer\.send\(/)).toEqual([]);
  });

  it('never load file:// pages or switch a security preference off', () => {
    expect(using(/loadFile\(|file:\/\//)).toEqual([]);
    expect(
      using(
        /(contextIsolation|sandbox|webSecurity)\s*:\s*false|nodeIntegration\s*:\s*true|enableBlinkFeatures|allowpopups/,
      ),
    ).toEqual([]);
  });

  it('keep the preload to contextBridge and ipcRenderer, and never expose ipcRenderer itself', () => {
    const preload = ELECTRON.filter((f) => f.path.startsWith('electron/preload/'));
    const imports = preload.flatMap((f) => [...strip(f.code).matchAll(/from '([^']+)'/g)].map((m) => m[1]));
    expect([...new Set(imports)].sort()).toEqual(['../../core/desk/contract', './desk-bridge', 'electron']);
    const index = strip(preload.find((f) => f.path === 'electron/preload/index.ts')!.code);
    expect(index).toMatch(/import \{ contextBridge, ipcRenderer \} from 'electron'/);
    expect(index).toMatch(/exposeInMainWorld\(DESK_API_GLOBAL, api\)/);
    expect(index).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });

  it('import electron (other than types) only where Electron objects are used, so the rest runs in Node', () => {
    expect(using(/^import (?!type )[^;]*from 'electron'/m).sort()).toEqual([
      'electron/main/index.ts',
      'electron/main/open-external.ts',
      'electron/main/protocol.ts',
      'electron/main/windows.ts',
      'electron/preload/index.ts',
    ]);
  });
});
