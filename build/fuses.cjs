// electron-builder afterPack hook: flips Electron's fuses in the packaged binary, before signing
// (Electron security checklist #19; docs/tutorial/fuses.md). A fuse is a bit in the executable itself, so
// unlike a command-line switch nobody can turn it back on without breaking the signature.
'use strict';
/* global require, module -- a CommonJS file: electron-builder require()s its hooks */

/** Fuse name (as in @electron/fuses' FuseV1Options) → the state RateDesk ships with. */
const FUSES = Object.freeze({
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node interpreter.
  RunAsNode: false,
  // NODE_OPTIONS could preload arbitrary code into the main process.
  EnableNodeOptionsEnvironmentVariable: false,
  // --inspect would attach a debugger to the process that holds the carrier secrets.
  EnableNodeCliInspectArguments: false,
  // Cookies encrypted at rest with the OS keychain (the renderer stores none, but no reason to allow it).
  EnableCookieEncryption: true,
  // app.asar checked against the hash embedded at build time (macOS and Windows).
  EnableEmbeddedAsarIntegrityValidation: true,
  // Only app.asar is loaded, never a loose app/ folder dropped beside it.
  OnlyLoadAppFromAsar: true,
  // The renderer is served from app://, so file:// needs none of its historical extra privileges.
  GrantFileProtocolExtraPrivileges: false,
});

async function afterPack(context) {
  // Loaded here, not at the top: the config test requires this file for FUSES alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS hook, see above
  const { FuseV1Options, FuseVersion } = require('@electron/fuses');
  const config = {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin',
  };
  for (const [name, value] of Object.entries(FUSES)) {
    const index = FuseV1Options[name];
    if (typeof index !== 'number') throw new Error(`@electron/fuses does not know the fuse ${name}`);
    config[index] = value;
  }
  // electron-builder knows the executable's name per platform; its helper finds it and calls flipFuses.
  await context.packager.addElectronFuses(context, config);
}

module.exports = afterPack;
module.exports.afterPack = afterPack;
module.exports.FUSES = FUSES;
