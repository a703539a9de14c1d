// Where the Electron binary is, without triggering electron's lazy download (electron ≥ 42 fetches its
// binary on the first require(), which hangs and fails on a machine without internet).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function findElectronBinary() {
  const require = createRequire(import.meta.url);
  let pkgDir;
  try {
    pkgDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = join(pkgDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(pkgDir, 'dist');
  if (!relative) return null;
  const full = join(distDir, relative);
  return existsSync(full) ? full : null;
}

export const ELECTRON_MISSING = `The Electron runtime is not installed on this machine, so the desktop window cannot open.
Electron downloads its binary the first time it runs; this machine could not (no internet access).
To get the desktop app, on a machine with internet access run:  npx install-electron --no
(or: node node_modules/electron/install.js), then npm start again.
Starting the headless rating service instead: same core, same data folder, the /v1 API below.`;
