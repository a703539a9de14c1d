// better-sqlite3 is a native module built for one runtime. node_modules holds the Node build (tests, the
// headless service); the Electron build lives apart in build/native/electron/ and is handed to the core as
// `open.nativeBinding`, so neither build ever replaces the other (docs/desktop.md, "Native modules").
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NATIVE_BINDING_FILE = 'better_sqlite3.node';

export interface NativeBindingPlaces {
  /** app.getAppPath(): the project folder in development, …/resources/app.asar when packaged. */
  appPath: string;
  /** process.resourcesPath: where electron-builder's extraResources land when packaged. */
  resourcesPath: string;
  isPackaged: boolean;
}

/** Candidate paths, most specific first. */
export function nativeBindingCandidates(places: NativeBindingPlaces): string[] {
  return places.isPackaged
    ? [join(places.resourcesPath, 'native', NATIVE_BINDING_FILE)]
    : [join(places.appPath, 'build', 'native', 'electron', NATIVE_BINDING_FILE)];
}

/** The Electron-ABI binding if one is present; undefined lets better-sqlite3 use its own build. */
export function findNativeBinding(
  places: NativeBindingPlaces,
  exists: (p: string) => boolean = existsSync,
): string | undefined {
  return nativeBindingCandidates(places).find((p) => exists(p));
}

/** better-sqlite3's words when a .node file was built for another runtime. */
export function isAbiMismatch(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /NODE_MODULE_VERSION|was compiled against a different Node\.js version|Module did not self-register/.test(
    message,
  );
}

export const ABI_HELP = `RateDesk's SQLite module was built for plain Node, not for Electron.
Build the Electron copy once (it is kept apart, so tests keep working):
  node scripts/build-electron.mjs --native
(see docs/desktop.md, "Native modules").`;
