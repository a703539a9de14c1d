// `npm run build:electron`: bundles the Electron main process and the preload into one CommonJS file each.
//   dist/electron/main.cjs     electron/main/index.ts + the core (zod included); electron and better-sqlite3
//                              stay external (one is the runtime, the other a native module)
//   dist/electron/preload.cjs  electron/preload/index.ts: a sandboxed preload may require() only a few
//                              Electron modules, so everything else it uses must be inside this one file
//   dist/electron/icon.png     the window icon (build/icon.png)
// Rolldown is the bundler Vite 8 builds the renderer with; it needs no Electron binary.
//
// `node scripts/build-electron.mjs --native`: builds better_sqlite3.node for Electron's ABI into
// build/native/electron/ from a copy of the package, leaving node_modules' Node build (tests) untouched.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'electron');

const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;

/** Node's and Electron's own modules: resolved at run time, never bundled. */
const EXTERNAL = [/^node:/, /^electron(\/.*)?$/, /^better-sqlite3(\/.*)?$/];

const ENTRIES = [
  { input: 'electron/main/index.ts', file: 'main.cjs', external: EXTERNAL },
  // Only `electron` (contextBridge, ipcRenderer) may stay outside the sandboxed preload.
  { input: 'electron/preload/index.ts', file: 'preload.cjs', external: [/^electron$/] },
];

async function bundle() {
  const { build } = await import('rolldown');
  mkdirSync(outDir, { recursive: true });
  for (const entry of ENTRIES) {
    const started = performance.now();
    await build({
      cwd: root,
      input: join(root, entry.input),
      platform: 'node',
      external: entry.external,
      tsconfig: join(root, 'tsconfig.electron.json'),
      logLevel: 'warn',
      output: {
        file: join(outDir, entry.file),
        format: 'cjs',
        sourcemap: true,
        codeSplitting: false,
      },
      write: true,
    });
    console.log(`built dist/electron/${entry.file} (${Math.round(performance.now() - started)} ms)`);
  }
  // The window icon on Linux; Windows and macOS take theirs from the packaged executable.
  copyFileSync(join(root, 'build', 'icon.png'), join(outDir, 'icon.png'));
}

function run(cmd, args, cwd) {
  // nodedir (set for this machine's Node builds) would point node-gyp at Node's headers, not Electron's.
  const env = { ...process.env };
  delete env.npm_config_nodedir;
  delete env.NPM_CONFIG_NODEDIR;
  return spawnSync(cmd, args, { cwd, stdio: 'inherit', env }).status === 0;
}

/**
 * A prebuilt Electron binary from better-sqlite3's releases when the network allows, else a compile against
 * Electron's headers. Both happen in a temporary copy: building in node_modules would swap the Node build
 * the tests load for one they cannot.
 */
function buildNative() {
  const pkgDir = dirname(require.resolve('better-sqlite3/package.json'));
  const work = mkdtempSync(join(tmpdir(), 'ratedesk-sqlite-electron-'));
  const copy = join(work, 'better-sqlite3');
  const target = join(root, 'build', 'native', 'electron', 'better_sqlite3.node');
  try {
    cpSync(pkgDir, copy, { recursive: true, filter: (src) => !src.startsWith(join(pkgDir, 'build')) });
    const bin = join(root, 'node_modules', '.bin');
    const electronFlags = [`--runtime=electron`, `--target=${electronVersion}`, `--arch=${process.arch}`];
    const ok =
      run(join(bin, 'prebuild-install'), [...electronFlags, '--verbose'], copy) ||
      run(
        join(bin, 'node-gyp'),
        ['rebuild', '--release', ...electronFlags, '--dist-url=https://electronjs.org/headers'],
        copy,
      );
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    if (!ok || !existsSync(built)) {
      console.error(
        `Could not get better_sqlite3.node for Electron ${electronVersion}: both the prebuilt download and the ` +
          'header download for a source build need internet access. Run this again where it is available.',
      );
      return false;
    }
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(built, target);
    console.log(`wrote ${target} (Electron ${electronVersion}, ${process.platform}-${process.arch})`);
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv.includes('--native')) {
  process.exit(buildNative() ? 0 : 1);
} else {
  await bundle();
}
