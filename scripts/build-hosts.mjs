// `npm run build:hosts` (part of `npm run build`): the headless hosts as plain JavaScript, so that
// `npm run serve` and `npm run admin` compile no TypeScript at run time (tsx cost ≈ 600 ms per start).
//   dist/hosts/serve.cjs, admin.cjs   core/cli/serve.ts, core/cli/admin.ts + the core + zod + undici, one
//                                     CommonJS file each (+ .map); better-sqlite3 (native) and Node's own
//                                     modules stay external, loaded from node_modules at run time
//   dist/hosts/serve.mjs, admin.mjs   what to run: `node dist/hosts/serve.mjs --port 0`; each hands its bundle
//                                     to load.mjs (a copy of scripts/host-loader.mjs: V8 code cache, stack
//                                     traces mapped back to the .ts sources)
// One bundle per host and no shared chunk: a host then compiles one file, which one code cache covers.
// Pure-JS dependencies are bundled rather than left in node_modules: loading zod's and undici's files one by
// one took ~100 ms more per start than the same code in the bundle.
//
// `node scripts/build-hosts.mjs [--out DIR]` builds into DIR (default dist/hosts). The bundles find
// better-sqlite3 the way Node always does, in a node_modules folder above DIR.
//
// Also imported by scripts/run-host.mjs (npm run serve / admin) for `staleReason`, so this module loads
// rolldown only when it builds.
import { builtinModules } from 'node:module';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Real path: rolldown names modules by their real paths, which moduleSideEffects below compares with.
export const ROOT = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));
export const DEFAULT_OUT = join(ROOT, 'dist', 'hosts');
export const HOSTS = { serve: 'core/cli/serve.ts', admin: 'core/cli/admin.ts' };

/**
 * What a build depends on besides core/: the build and its loader, the TypeScript settings rolldown reads,
 * and the lock file that pins the bundled zod and undici.
 */
const OTHER_INPUTS = [
  'scripts/build-hosts.mjs',
  'scripts/host-loader.mjs',
  'tsconfig.json',
  'package-lock.json',
];

/** Node's modules and the native better-sqlite3 are loaded at run time; everything else is bundled. */
const EXTERNAL = [
  /^node:/,
  new RegExp(`^(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})(\\/.*)?$`),
  /^better-sqlite3(\/.*)?$/,
];

const CORE_DIR = join(ROOT, 'core') + sep;
const ENTRIES = new Set(Object.values(HOSTS).map((p) => join(ROOT, p)));

/**
 * Our modules have no import-time side effects besides defining their exports (no module is imported for
 * its effects alone), so a core module none of whose exports a host uses can be left out. Without this,
 * admin carried the carriers' HTTP client, whose module creates an undici Agent when loaded: undici's
 * whole index (~40 ms of every admin command) for nothing. Dependencies keep their own package.json rules.
 */
function moduleSideEffects(id, external) {
  if (external || !id.startsWith(CORE_DIR)) return undefined;
  return ENTRIES.has(id);
}

/** The newest modification time of anything a build depends on: core/ (files and folders), OTHER_INPUTS. */
function newestInput() {
  let newest = 0;
  let newestPath = '';
  const consider = (path) => {
    const t = statSync(path).mtimeMs;
    if (t > newest) [newest, newestPath] = [t, path];
  };
  // Folders count too: deleting or renaming a file changes its folder's mtime and no file's.
  const walk = (dir) => {
    consider(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) consider(path);
    }
  };
  walk(join(ROOT, 'core'));
  for (const file of OTHER_INPUTS) {
    try {
      consider(join(ROOT, file));
    } catch {
      // no lock file in a checkout that never ran npm install: nothing to compare
    }
  }
  return { newest, newestPath };
}

/**
 * Why `host` must be (re)built in `outDir`, or null when its build is newer than every input. A few hundred
 * stat calls, ~2 ms: cheap enough for every `npm run serve` and `npm run admin`.
 */
export function staleReason(host, outDir = DEFAULT_OUT) {
  let built;
  try {
    // The entry is written last and stamped with the build's start time (see buildHosts).
    built = statSync(join(outDir, `${host}.mjs`)).mtimeMs;
    statSync(join(outDir, `${host}.cjs`));
    statSync(join(outDir, 'load.mjs'));
  } catch {
    return `${relative(ROOT, outDir) || outDir}/${host}.mjs does not exist yet`;
  }
  const { newest, newestPath } = newestInput();
  return newest > built ? `${relative(ROOT, newestPath)} changed since the last build` : null;
}

/** Builds every host into `outDir`; each file appears there whole (renamed in), never half-written. */
export async function buildHosts({ outDir = DEFAULT_OUT, log = console.log } = {}) {
  let build;
  try {
    ({ build } = await import('rolldown'));
  } catch (err) {
    // An install without devDependencies: say what is missing rather than print a resolver stack.
    throw new Error(
      `Building ${relative(ROOT, outDir) || outDir}/ needs rolldown, a devDependency: run npm ci first (${err.message})`,
      { cause: err },
    );
  }
  const started = Date.now();
  mkdirSync(dirname(outDir), { recursive: true });
  // A temporary folder beside the output: the renames below stay on one file system, and a host started
  // during the build runs the previous files, not half-written ones.
  const tmp = mkdtempSync(join(dirname(outDir), '.hosts-build-'));
  try {
    for (const [host, input] of Object.entries(HOSTS)) {
      const t0 = performance.now();
      await build({
        cwd: ROOT,
        input: join(ROOT, input),
        platform: 'node',
        external: EXTERNAL,
        tsconfig: join(ROOT, 'tsconfig.json'),
        treeshake: { moduleSideEffects },
        logLevel: 'warn',
        output: {
          file: join(tmp, `${host}.cjs`),
          // CommonJS because Node 20 has a code cache API for scripts (vm.Script cachedData) and none for
          // ES modules; see host-loader.mjs.
          format: 'cjs',
          sourcemap: true,
          // The sources are in the repository; the map only has to point at them.
          sourcemapExcludeSources: true,
          codeSplitting: false,
        },
        write: true,
      });
      log(`built ${relative(ROOT, join(outDir, `${host}.cjs`))} (${Math.round(performance.now() - t0)} ms)`);
    }
    copyFileSync(join(ROOT, 'scripts', 'host-loader.mjs'), join(tmp, 'load.mjs'));
    for (const host of Object.keys(HOSTS)) {
      writeFileSync(
        join(tmp, `${host}.mjs`),
        `// Generated by scripts/build-hosts.mjs from ${HOSTS[host]}: \`node ${host}.mjs …\` runs ${host}.cjs.\n` +
          `import { runBundle } from './load.mjs';\n\n` +
          `runBundle(new URL('./${host}.cjs', import.meta.url));\n`,
      );
    }
    mkdirSync(outDir, { recursive: true });
    const names = Object.keys(HOSTS);
    const order = [
      ...names.flatMap((h) => [`${h}.cjs.map`, `${h}.cjs`]),
      'load.mjs',
      ...names.map((h) => `${h}.mjs`),
    ];
    for (const name of order) renameSync(join(tmp, name), join(outDir, name));
    for (const host of names) {
      // A code cache made from the previous bundle would be refused anyway (load.mjs checks); drop it now.
      rmSync(join(outDir, `${host}.cjs.cache`), { force: true });
      // The stamp staleReason compares with: the build's start, so an edit made during the build counts.
      utimesSync(join(outDir, `${host}.mjs`), started / 1000, started / 1000);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function parseOut(argv) {
  const i = argv.indexOf('--out');
  if (i === -1) return DEFAULT_OUT;
  const dir = argv[i + 1];
  if (!dir) throw new Error('--out needs a folder');
  return resolve(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await buildHosts({ outDir: parseOut(process.argv.slice(2)) });
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
