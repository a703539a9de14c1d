// electron-builder run for real with build/electron-builder.yml, as far as it goes without Electron: an
// unpacked Linux app ("dir" target) from a stand-in Electron distribution (an executable holding Electron's
// fuse wire). Checks what lands in app.asar, what stays outside it, and that the afterPack hook flipped the
// fuses in the executable electron-builder produced.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const builder = require('electron-builder') as {
  build(options: {
    projectDir: string;
    targets: unknown;
    config: Record<string, unknown>;
  }): Promise<string[]>;
  Platform: { LINUX: { createTarget(types: string[]): unknown } };
};
const asar = require('@electron/asar') as {
  listPackage(path: string, options: { isPack: boolean }): string[];
};
const fuses = require('@electron/fuses') as {
  getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
};

const linuxX64 = process.platform === 'linux' && process.arch === 'x64';
const work = mkdtempSync(join(tmpdir(), 'ratedesk-dist-'));
const out = join(work, 'release');
const app = join(out, 'linux-unpacked');

describe.skipIf(!linuxX64)(
  linuxX64
    ? 'electron-builder --linux dir with a stand-in Electron'
    : 'electron-builder --linux dir (skipped: the Linux x64 packaging target builds only on a Linux x64 host)',
  () => {
    beforeAll(async () => {
      const bundle = spawnSync(process.execPath, [join(root, 'scripts', 'build-electron.mjs')], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(bundle.status, bundle.stderr).toBe(0);

      const electronDist = join(work, 'electron-dist');
      mkdirSync(join(electronDist, 'resources'), { recursive: true });
      const wire = Buffer.concat([
        Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
        Buffer.from([1, 8]),
        Buffer.from('10110001'),
      ]);
      writeFileSync(
        join(electronDist, 'electron'),
        Buffer.concat([Buffer.alloc(256, 1), wire, Buffer.alloc(256, 1)]),
        { mode: 0o755 },
      );
      writeFileSync(join(electronDist, 'LICENSE'), 'stand-in');
      writeFileSync(join(electronDist, 'version'), '45.4.1');
      // Stands in for build/native/electron/better_sqlite3.node, which needs Electron's headers to build.
      const native = join(work, 'better_sqlite3.node');
      writeFileSync(native, 'stand-in native module');

      const config = yaml.load(readFileSync(join(root, 'build', 'electron-builder.yml'), 'utf8')) as Record<
        string,
        unknown
      >;
      await builder.build({
        projectDir: root,
        targets: builder.Platform.LINUX.createTarget(['dir']),
        config: {
          ...config,
          directories: { ...(config.directories as object), output: out },
          electronDist,
          extraResources: [{ from: native, to: 'native/better_sqlite3.node' }],
        },
      });
    }, 180_000);
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('packs only what runs into app.asar', () => {
      const files = asar
        .listPackage(join(app, 'resources', 'app.asar'), { isPack: false })
        .map((f) => f.replace(/\\/g, '/'));
      const topLevel = [...new Set(files.map((f) => f.split('/').slice(0, 3).join('/')))].sort();
      expect(topLevel).toEqual(
        expect.arrayContaining([
          '/dist/electron',
          '/node_modules/better-sqlite3',
          '/node_modules/bindings',
          '/package.json',
        ]),
      );
      expect(files).toContain('/dist/electron/main.cjs');
      expect(files).toContain('/dist/electron/preload.cjs');
      expect(files).toContain('/node_modules/better-sqlite3/lib/database.js');
      const modules = [
        ...new Set(files.filter((f) => f.startsWith('/node_modules/')).map((f) => f.split('/')[2])),
      ].sort();
      expect(modules).toEqual(['better-sqlite3', 'bindings', 'file-uri-to-path']);
      expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts') || f.endsWith('.node'))).toEqual([]);
      expect(files.filter((f) => /^\/(test|core|electron|renderer|scripts|docs|build)\//.test(f))).toEqual(
        [],
      );
    });

    it('puts the Electron-ABI SQLite build outside the asar, where native-sqlite.ts looks', () => {
      expect(readFileSync(join(app, 'resources', 'native', 'better_sqlite3.node'), 'utf8')).toBe(
        'stand-in native module',
      );
    });

    it('names the executable and flips its fuses', async () => {
      const wire = await fuses.getCurrentFuseWire(join(app, 'ratedesk'));
      const ON = 49;
      const OFF = 48;
      expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => wire[String(i)])).toEqual([
        OFF,
        ON,
        OFF,
        OFF,
        ON,
        ON,
        OFF,
        OFF,
      ]);
    });
  },
);
