// Runs a built host's bundle (copied to dist/hosts/load.mjs by scripts/build-hosts.mjs; dist/hosts/serve.mjs
// and admin.mjs call it). Two things plain `node serve.cjs` would not do:
//   - V8 code cache. Compiling the 1.5 MB serve bundle took ~35 ms of each start. The bytecode V8 built in an
//     earlier run is kept beside the bundle (serve.cjs.cache) and handed back to V8, which checks it against
//     its version and flags and refuses it if they differ. Node 22 has module.enableCompileCache() for this;
//     Node 20, which we support, only has vm.Script's cachedData, so the bundle is CommonJS run through
//     vm.Script (the same wrapper function Node's own loader puts around a CommonJS file).
//   - Stack traces in TypeScript. Node maps stack traces through source maps only for the files its loaders
//     compile, and --enable-source-maps parses the whole map at start (+30 ms for serve). Here a frame in the
//     bundle is mapped when a stack trace is formatted; the map is read the first time that happens.
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, Script } from 'node:vm';

const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

/** Bumped whenever the cache file's layout changes. */
const CACHE_FORMAT = 'ratedesk-code-cache-1';

/** How long serve runs before its cache is written (an admin command writes it at exit). */
const SAVE_AFTER_MS = 3000;

/** Runs the CommonJS bundle at `bundleUrl` as the main program of this process. */
export function runBundle(bundleUrl) {
  const file = realpathSync(fileURLToPath(bundleUrl));
  // Size, mtime and inode of the very file read (one descriptor for both): a cache is used only with the
  // bundle it was made from. V8's own check compares the source's length, not its content.
  const fd = openSync(file, 'r');
  let source;
  let stamp;
  try {
    const st = fstatSync(fd);
    stamp = `${CACHE_FORMAT} ${process.version} ${process.arch} ${st.size} ${st.mtimeMs} ${st.ino}`;
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const cacheFile = `${file}.cache`;
  const cachedData = readCache(cacheFile, stamp);
  const script = new Script(`${WRAPPER}${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // import() inside the bundle resolves as in any module of the main program.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected) saveCacheLater(script, cacheFile, stamp);
  mapStackTraces(file, WRAPPER.length);

  // The host sees itself as the program Node was started with (admin's entry point checks argv[1]).
  process.argv[1] = file;
  const module = { exports: {}, id: file, filename: file, loaded: false };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
}

function readCache(path, stamp) {
  let data;
  try {
    data = readFileSync(path);
  } catch {
    return undefined;
  }
  const eol = data.indexOf(10);
  if (eol < 0 || data.toString('latin1', 0, eol) !== stamp) return undefined;
  return data.subarray(eol + 1);
}

/**
 * After the run, not before: V8 then includes every function the run compiled, not just the top level.
 * The file is written whole and renamed in, so a host starting meanwhile never reads half of it.
 */
function saveCacheLater(script, path, stamp) {
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    clearTimeout(timer);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, Buffer.concat([Buffer.from(`${stamp}\n`, 'latin1'), script.createCachedData()]));
      renameSync(tmp, path);
    } catch {
      // A read-only dist/ costs the next start its speed-up, nothing else.
    }
  };
  const timer = setTimeout(save, SAVE_AFTER_MS);
  timer.unref();
  process.once('exit', save);
}

/**
 * Formats stack traces as Node does (`Error.prototype.toString`, then one `    at …` line per frame), with
 * every frame in `file` pointing at the TypeScript source instead.
 */
function mapStackTraces(file, firstLineShift) {
  const mapFile = `${file}.map`;
  const mapDir = dirname(mapFile);
  /** @type {SourceMap | null | undefined} undefined until needed; null when the map cannot be read */
  let map;
  const sourceMap = () => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
      } catch {
        map = null;
      }
    }
    return map;
  };
  const describe = (frame) => {
    const text = String(frame);
    if (frame.getFileName() !== file) return text;
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (line === null || column === null) return text;
    const m = sourceMap();
    // The wrapper function shares the bundle's first line.
    const entry = m?.findEntry(line - 1, column - 1 - (line === 1 ? firstLineShift : 0));
    if (!entry || entry.originalSource === undefined) return text;
    const where = `${resolve(mapDir, entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    return text.replace(`${file}:${line}:${column}`, where);
  };
  Error.prepareStackTrace = (error, frames) => {
    let text;
    try {
      text = Error.prototype.toString.call(error);
    } catch {
      text = '<error>';
    }
    for (const frame of frames) text += `\n    at ${describe(frame)}`;
    return text;
  };
}
