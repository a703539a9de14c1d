// The packaging configuration, checked where electron-builder cannot run to the end (no Electron binary):
// electron-builder's own schema and file matcher, the fuses hook flipping a binary's fuse wire, and the
// icons as real PNG/ICO/ICNS files of the right sizes.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_BINDING_FILE, nativeBindingCandidates } from '../../../electron/main/native-sqlite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(import.meta.url);

// Typed views of the untyped CommonJS modules this test borrows from electron-builder's dependencies.
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const { FileMatcher } = require('app-builder-lib/out/fileMatcher.js') as {
  FileMatcher: new (
    from: string,
    to: string,
    expand: (p: string) => string,
    patterns: string[],
  ) => { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
};
const fuses = require('@electron/fuses') as {
  FuseV1Options: Record<string, number | string>;
  FuseVersion: { V1: string };
  flipFuses(path: string, config: Record<string, unknown>): Promise<number>;
  getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
};

interface FileSet {
  from: string;
  to: string;
}
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  extraResources: FileSet[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  nodeGypRebuild: boolean;
  buildDependenciesFromSource: boolean;
  afterPack: string;
  linux: { target: string[]; category: string; icon: string; maintainer: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  publish: null;
}

const configPath = join(root, 'build', 'electron-builder.yml');
const config = yaml.load(readFileSync(configPath, 'utf8')) as BuilderConfig;

describe('build/electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The check is real: a wrong type is refused.
    await expect(
      validateConfiguration({ ...config, npmRebuild: 'no' }, new DebugLogger(false)),
    ).rejects.toThrow(/npmRebuild/);
  });

  it('names the app and its folders', () => {
    expect(config).toMatchObject({
      appId: 'ru.ratedesk.app',
      productName: 'RateDesk',
      directories: { buildResources: 'build', output: 'release' },
      publish: null,
    });
  });

  it('builds AppImage + deb (Office), NSIS and dmg with icons', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.category).toBe('Office');
    expect(config.linux.maintainer).toMatch(/<.+@.+>/); // the deb target refuses to build without one
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(existsSync(join(root, config.linux.icon))).toBe(true);
    expect(existsSync(join(root, config.win.icon))).toBe(true);
    expect(existsSync(join(root, config.mac.icon))).toBe(true);
  });

  it('never rebuilds native modules in place (the Node build stays for tests and serve)', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('ships the Electron-ABI SQLite build where the main process looks for it', () => {
    expect(config.extraResources).toEqual([
      { from: 'build/native/electron/better_sqlite3.node', to: `native/${NATIVE_BINDING_FILE}` },
    ]);
    const [packaged] = nativeBindingCandidates({ appPath: '/a', resourcesPath: '/res', isPackaged: true });
    expect(packaged).toBe(join('/res', config.extraResources[0]!.to));
    const [dev] = nativeBindingCandidates({ appPath: root, resourcesPath: '/res', isPackaged: false });
    expect(dev).toBe(join(root, config.extraResources[0]!.from));
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**');
  });

  it('starts the app package.json names, which the bundler writes', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('dist/electron/main.cjs');
    expect(readFileSync(join(root, 'scripts', 'build-electron.mjs'), 'utf8')).toContain("file: 'main.cjs'");
  });

  describe('files (through electron-builder’s own matcher)', () => {
    const include = new FileMatcher(root, 'app', (p) => p, config.files).createFilter();
    const file = { isDirectory: () => false };
    const packed = (relative: string): boolean => include(join(root, relative), file);

    it.each([
      'package.json',
      'dist/electron/main.cjs',
      'dist/electron/preload.cjs',
      'dist/electron/icon.png',
      'dist/renderer/index.html',
      'dist/renderer/assets/index-abc123.js',
      'node_modules/better-sqlite3/lib/database.js',
      'node_modules/better-sqlite3/package.json',
      'node_modules/bindings/bindings.js',
      'node_modules/file-uri-to-path/index.js',
    ])('packs %s', (path) => expect(packed(path)).toBe(true));

    it.each([
      'dist/electron/main.cjs.map',
      'dist/renderer/assets/index-abc123.js.map',
      'test/unit/electron/packaging.test.ts',
      'test/e2e/electron/app.spec.ts',
      'core/service.ts',
      'electron/main/index.ts',
      'renderer/src/main.tsx',
      'scripts/dist.mjs',
      'docs/desktop.md',
      'build/electron-builder.yml',
      'build/native/electron/better_sqlite3.node',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c',
      'node_modules/better-sqlite3/src/better_sqlite3.cpp',
      'node_modules/electron/index.js',
      'node_modules/react/index.js',
      // Bundled into main.cjs already.
      'node_modules/zod/package.json',
      // better-sqlite3's install-time helpers: production dependencies electron-builder would add by itself.
      'node_modules/prebuild-install/index.js',
      'node_modules/tar-fs/index.js',
      'tsconfig.json',
      '.ci/electronegativity.sh',
      'release/RateDesk-0.1.0.AppImage',
    ])('leaves out %s', (path) => expect(packed(path)).toBe(false));
  });
});

describe('build/fuses.cjs (afterPack)', () => {
  const hookPath = join(root, 'build', 'fuses.cjs');
  const hook = require(hookPath) as {
    (context: unknown): Promise<void>;
    FUSES: Record<string, boolean>;
  };
  const EXPECTED = {
    RunAsNode: false,
    EnableNodeOptionsEnvironmentVariable: false,
    EnableNodeCliInspectArguments: false,
    EnableCookieEncryption: true,
    EnableEmbeddedAsarIntegrityValidation: true,
    OnlyLoadAppFromAsar: true,
    GrantFileProtocolExtraPrivileges: false,
  };
  const work = mkdtempSync(join(tmpdir(), 'ratedesk-fuses-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is the afterPack hook of the config', () => {
    expect(config.afterPack).toBe('./build/fuses.cjs');
    expect(existsSync(join(root, config.afterPack))).toBe(true);
  });

  it('sets the seven fuses of the security checklist', () => {
    expect(hook.FUSES).toEqual(EXPECTED);
    for (const name of Object.keys(EXPECTED)) expect(typeof fuses.FuseV1Options[name], name).toBe('number');
  });

  it('flips them in a binary’s fuse wire', async () => {
    // A stand-in executable: Electron's sentinel, wire version 1, 8 fuses in Electron's default states
    // (RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar integrity off, only-asar off,
    // V8 snapshot off, file:// privileges on), padded like the real thing.
    const wire = Buffer.from('10110001', 'ascii');
    const binary = join(work, 'ratedesk');
    writeFileSync(
      binary,
      Buffer.concat([
        Buffer.alloc(64, 7),
        Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
        Buffer.from([1, 8]),
        wire,
        Buffer.alloc(64, 7),
      ]),
    );
    copyFileSync(binary, `${binary}.orig`);
    const context = {
      electronPlatformName: 'linux',
      appOutDir: work,
      packager: {
        // electron-builder's helper finds the executable and calls flipFuses; the stand-in does the same.
        addElectronFuses: (_ctx: unknown, cfg: Record<string, unknown>) => fuses.flipFuses(binary, cfg),
      },
    };
    await hook(context);
    const after = await fuses.getCurrentFuseWire(binary);
    const ON = 49; // '1'
    const OFF = 48; // '0'
    for (const [name, enabled] of Object.entries(EXPECTED)) {
      expect(after[String(fuses.FuseV1Options[name])], name).toBe(enabled ? ON : OFF);
    }
    // The one fuse we leave alone keeps Electron's default.
    expect(after[String(fuses.FuseV1Options.LoadBrowserProcessSpecificV8Snapshot)]).toBe(OFF);
  });
});

/** Width, height and colour type of a PNG, after checking its signature, chunk CRCs and pixel data. */
function readPng(buf: Buffer): { width: number; height: number; colourType: number } {
  expect(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  let offset = 8;
  let ihdr: Buffer | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    const crc = buf.readUInt32BE(offset + 8 + length);
    expect(crc, `${type} CRC`).toBe(crc32(buf.subarray(offset + 4, offset + 8 + length)));
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    if (type === 'IEND') ended = true;
    offset += 12 + length;
  }
  expect(ended).toBe(true);
  if (!ihdr) throw new Error('no IHDR');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const colourType = ihdr[9]!;
  // RGBA 8-bit: one filter byte plus 4 bytes per pixel per row.
  if (colourType === 6) expect(inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * 4));
  return { width, height, colourType };
}

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('icons', () => {
  it.each([16, 24, 32, 48, 64, 128, 256, 512, 1024])(
    'build/icons/%ix%i.png is a valid PNG of that size',
    (size) => {
      expect(readPng(readFileSync(join(root, 'build', 'icons', `${size}x${size}.png`)))).toEqual({
        width: size,
        height: size,
        colourType: 6,
      });
    },
  );

  it('build/icon.png is 512×512 (electron-builder’s fallback for every target)', () => {
    expect(readPng(readFileSync(join(root, 'build', 'icon.png')))).toMatchObject({ width: 512, height: 512 });
  });

  it('has a transparent corner and an opaque centre (a real drawing, not a filled square)', () => {
    const png = readFileSync(join(root, 'build', 'icons', '64x64.png'));
    const idat = png.subarray(33 + 8, png.length - 12); // single IDAT chunk written by the generator
    const pixels = inflateSync(idat.subarray(0, idat.length - 4));
    const alpha = (x: number, y: number): number => pixels[y * (1 + 64 * 4) + 1 + x * 4 + 3]!;
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(32, 32)).toBe(255);
  });

  it('build/icon.ico holds PNG entries 16…256', () => {
    const ico = readFileSync(join(root, 'build', 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const e = 6 + i * 16;
      const size = ico[e] === 0 ? 256 : ico[e]!;
      const data = ico.subarray(ico.readUInt32LE(e + 12), ico.readUInt32LE(e + 12) + ico.readUInt32LE(e + 8));
      expect(readPng(data)).toMatchObject({ width: size, height: size });
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('build/icon.icns holds PNG entries up to 1024', () => {
    const icns = readFileSync(join(root, 'build', 'icon.icns'));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let offset = 8; offset < icns.length;) {
      const type = icns.toString('ascii', offset, offset + 4);
      const length = icns.readUInt32BE(offset + 4);
      readPng(icns.subarray(offset + 8, offset + length));
      types.push(type);
      offset += length;
    }
    expect(types).toEqual(['icp4', 'icp5', 'icp6', 'ic07', 'ic08', 'ic09', 'ic10']);
  });

  it('keeps the SVG source beside them', () => {
    expect(readFileSync(join(root, 'build', 'icons', 'icon.svg'), 'utf8')).toMatch(
      /^<svg [^>]*viewBox="0 0 1024 1024"/,
    );
  });
});
