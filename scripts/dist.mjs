// `npm run dist [-- electron-builder args]`: builds the app and packages it with build/electron-builder.yml
// (Linux AppImage + deb, Windows NSIS, macOS dmg; by default for the platform you are on).
//   npm run dist                      installers for this platform into release/
//   npm run dist -- --dir             an unpacked app only (quick check)
//   npm run dist -- --win             another platform (electron-builder downloads that Electron)
// Packaging needs the Electron runtime (the packed app IS Electron) and better_sqlite3.node built for it;
// where either cannot be had, this says so and exits 1 instead of half-building.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const NATIVE = join(root, 'build', 'native', 'electron', 'better_sqlite3.node');
const PLATFORM_FLAGS = {
  '--linux': 'linux',
  '-l': 'linux',
  '--win': 'win32',
  '-w': 'win32',
  '--mac': 'darwin',
  '-m': 'darwin',
};

const givenDist = args.some((a) => a.startsWith('-c.electronDist') || a.startsWith('--config.electronDist'));
const otherPlatform = args.some(
  (a) => Object.hasOwn(PLATFORM_FLAGS, a) && PLATFORM_FLAGS[a] !== process.platform,
);
const binary = findElectronBinary();

if (!binary && !givenDist && !otherPlatform) {
  console.error(`Cannot package RateDesk here: the Electron runtime is not installed on this machine.
An installer contains Electron itself, and Electron's binary is downloaded from GitHub the first time it is
needed, which this machine cannot reach. On a machine with internet access run \`npx install-electron --no\`
(or simply \`npm start\` once), then \`npm run dist\` again; the configuration is build/electron-builder.yml
and is checked by test/unit/electron/packaging.test.ts even here.`);
  process.exit(1);
}

function step(label, cmd, cmdArgs) {
  console.log(`\n=== ${label}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${label} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

step('build the renderer', process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build']);
step('bundle main and preload', process.execPath, [join(root, 'scripts', 'build-electron.mjs')]);

if (!existsSync(NATIVE)) {
  // The packaged app opens SQLite with this file; without it the window would open on an error.
  step('build better_sqlite3.node for Electron', process.execPath, [
    join(root, 'scripts', 'build-electron.mjs'),
    '--native',
  ]);
}

// Reuse the local Electron instead of downloading it again, when packaging for this platform.
const localDist =
  binary && !givenDist && !otherPlatform
    ? [
        '-c.electronDist=' +
          (process.env.ELECTRON_OVERRIDE_DIST_PATH ||
            join(dirname(require.resolve('electron/package.json')), 'dist')),
      ]
    : [];
step('electron-builder', process.execPath, [
  join(root, 'node_modules', 'electron-builder', 'cli.js'),
  '--config',
  join('build', 'electron-builder.yml'),
  '--publish',
  'never',
  ...localDist,
  ...args,
]);
console.log(`\nDone: see ${join(root, 'release')}`);
