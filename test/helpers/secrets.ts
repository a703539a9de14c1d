// Tools for the secrets suite (test/reliability/secrets.test.ts): an independent reading of the published key
// format, single-character corruptions, a byte search of files for any piece of a secret, and `serve` / `admin`
// child processes whose every output byte lands in a file that the search then reads.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 as zlibCrc32 } from 'node:zlib';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// ---- the published format, read independently of core/keys ------------------------------------------------

/** The alphabet in digit order, as docs/admin.md and design.md publish it (0-9, A-Z, a-z). */
export const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `rdk_` + 32 random base62 + 6 base62 checksum: 42 characters, written out rather than imported. */
export const PUBLISHED_KEY = /^rdk_[0-9A-Za-z]{32}[0-9A-Za-z]{6}$/;
export const PREFIX_LENGTH = 4;
export const RANDOM_LENGTH = 32;

/**
 * The checksum a key must end with, computed with node:zlib's CRC-32 (not core/keys/crc32.ts) and our own
 * base62: a bug shared by generateKey and hasValidChecksum would otherwise pass every check.
 */
export function independentChecksum(random: string): string {
  let n = zlibCrc32(Buffer.from(random, 'utf8')) >>> 0;
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function splitKey(key: string): { random: string; checksum: string } {
  return {
    random: key.slice(PREFIX_LENGTH, PREFIX_LENGTH + RANDOM_LENGTH),
    checksum: key.slice(PREFIX_LENGTH + RANDOM_LENGTH),
  };
}

/**
 * Chi-square of how often each base62 character occurs, against a uniform draw. A generator that drops the
 * rejection step (`byte % 62`) over-weights the first 8 characters by 25 %, which this sees at once.
 */
export function chiSquareUniform(counts: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  const expected = total / counts.length;
  let chi = 0;
  for (let i = 0; i < counts.length; i++) chi += (counts[i]! - expected) ** 2 / expected;
  return chi;
}

/** Wilson–Hilferty approximation of the chi-square quantile for `df` degrees of freedom at normal quantile z. */
export function chiSquareQuantile(df: number, z: number): number {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

// ---- single-character corruptions --------------------------------------------------------------------------

/** Not base62, but plausible in a paste or a bad copy; all can travel in an HTTP header (latin1). */
export const NON_BASE62_HEADER_SAFE = ['-', '_', '.', '~', '+', '/', '=', '!', '%', '"', ' ', '\u00e9'];
/** Only for the in-process check: these cannot be put in a header by node:http (or are homoglyphs). */
export const NON_BASE62_IN_PROCESS = ['\u0000', '\n', '\u20ac', '\u200b', '\u0430', '\u043e', '\uff41'];

export interface Corruption {
  position: number;
  /** The replacement character. */
  char: string;
  corrupted: string;
  /** Inside the 38 characters after `rdk_`, which the CRC-32 and the pattern protect. */
  checksummed: boolean;
}

/** Every position × every other base62 character, then × each extra non-base62 character. */
export function* substitutions(key: string, extras: readonly string[]): Generator<Corruption> {
  for (let position = 0; position < key.length; position++) {
    for (const char of [...ALPHABET, ...extras]) {
      if (char === key[position]) continue;
      yield {
        position,
        char,
        corrupted: key.slice(0, position) + char + key.slice(position + 1),
        checksummed: position >= PREFIX_LENGTH,
      };
    }
  }
}

/**
 * Whether docs/api.md + docs/admin.md allow the listener to look a presented token up at all: a RateDesk
 * token (`rdk_…`) only with a valid checksum; anything else only when it could be an imported foreign key
 * (20–200 printable ASCII without spaces). The Authorization grammar is `Bearer +<token>`, so spaces that
 * follow the scheme belong to the separator, not to the token.
 */
export function documentedLookupAllowed(presented: string): boolean {
  const token = presented.replace(/^ +/, '');
  if (!/^\S+$/.test(token)) return false;
  if (token.startsWith('rdk_')) {
    if (!PUBLISHED_KEY.test(token)) return false;
    const { random, checksum } = splitKey(token);
    return independentChecksum(random) === checksum;
  }
  return /^[\x21-\x7e]{20,200}$/.test(token);
}

// ---- byte search -----------------------------------------------------------------------------------------

/**
 * Any 16 consecutive characters of a secret's random part count as a leak: 62^16 ≈ 5·10^28 makes a chance
 * match impossible, while the masked forms RateDesk shows by design (`rdk_` + 4, last 4) stay below it.
 */
export const WINDOW = 16;

export interface TrackedSecret {
  label: string;
  secret: string;
  /** The longest base62 run of the secret: its random part (the 38 characters after `rdk_`). */
  core: string;
}

export interface Hit {
  file: string;
  /** Byte offset of the match in the file. */
  offset: number;
  encoding: 'utf8' | 'utf16le';
  /** The secret's label: a failure message names it, never prints it. */
  label: string;
}

export interface SearchReport {
  files: number;
  bytes: number;
  hits: Hit[];
}

const IS_BASE62 = new Uint8Array(256);
for (const ch of ALPHABET) IS_BASE62[ch.charCodeAt(0)] = 1;

/** Every secret the run ever created, imported or presented, indexed by its lowercased 16-character windows. */
export class SecretRegistry {
  readonly secrets: TrackedSecret[] = [];
  private readonly byWindow = new Map<string, number>();

  add(label: string, secret: string): string {
    const core = longestBase62Run(secret);
    // A shorter core would make the window search either blind or prone to chance matches.
    if (core.length < 24) throw new Error(`secret ${label} has too little base62 entropy to be searched`);
    const index = this.secrets.push({ label, secret, core }) - 1;
    const lower = core.toLowerCase();
    for (let i = 0; i + WINDOW <= lower.length; i++) {
      const w = lower.slice(i, i + WINDOW);
      if (!this.byWindow.has(w)) this.byWindow.set(w, index);
    }
    return secret;
  }

  get size(): number {
    return this.secrets.length;
  }

  /**
   * Matches case-insensitively (a log that lower-cases a header still leaks) in UTF-8/latin1 and in UTF-16LE
   * (SQLite's other text encoding, and what Windows tools write). Percent-encoding and JSON escaping leave
   * base62 untouched, so they need no pass of their own.
   */
  searchBuffer(buf: Buffer, file: string): Hit[] {
    const hits: Hit[] = [];
    const seen = new Set<string>();
    const check = (run: string, byteOffsetOf: (charIndex: number) => number, encoding: Hit['encoding']) => {
      const lower = run.toLowerCase();
      for (let i = 0; i + WINDOW <= lower.length; i++) {
        const index = this.byWindow.get(lower.slice(i, i + WINDOW));
        if (index === undefined) continue;
        const label = this.secrets[index]!.label;
        // One hit per secret per run is enough to point at the place.
        const id = `${label}@${byteOffsetOf(0)}:${encoding}`;
        if (seen.has(id)) continue;
        seen.add(id);
        hits.push({ file, offset: byteOffsetOf(i), encoding, label });
      }
    };
    // UTF-8 / latin1 / ASCII: maximal runs of base62 bytes.
    let start = -1;
    for (let i = 0; i <= buf.length; i++) {
      const inRun = i < buf.length && IS_BASE62[buf[i]!] === 1;
      if (inRun) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        if (i - start >= WINDOW) {
          const s = start;
          check(buf.toString('latin1', start, i), (c) => s + c, 'utf8');
        }
        start = -1;
      }
    }
    // UTF-16LE at both alignments: runs of (base62 byte, 0x00) pairs.
    for (let align = 0; align < 2; align++) {
      let run = '';
      let runStart = -1;
      for (let i = align; ; i += 2) {
        const inRun = i + 1 < buf.length && buf[i + 1] === 0 && IS_BASE62[buf[i]!] === 1;
        if (inRun) {
          if (runStart < 0) runStart = i;
          run += String.fromCharCode(buf[i]!);
          continue;
        }
        if (run.length >= WINDOW) {
          const s = runStart;
          check(run, (c) => s + 2 * c, 'utf16le');
        }
        run = '';
        runStart = -1;
        if (i + 1 >= buf.length) break;
      }
    }
    return hits;
  }

  /** Reads every regular file under the given files and folders (recursively) and searches it. */
  searchPaths(paths: readonly string[]): SearchReport {
    const report: SearchReport = { files: 0, bytes: 0, hits: [] };
    for (const file of listFiles(paths)) {
      let buf: Buffer;
      try {
        buf = readFileSync(file);
      } catch (err) {
        // SQLite may delete -wal/-shm between listing and reading.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      report.files++;
      report.bytes += buf.length;
      report.hits.push(...this.searchBuffer(buf, file));
    }
    return report;
  }
}

function longestBase62Run(text: string): string {
  let best = '';
  for (const m of text.matchAll(/[0-9A-Za-z]+/g)) if (m[0].length > best.length) best = m[0];
  return best;
}

export function listFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (p: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (st.isDirectory()) for (const name of readdirSync(p).sort()) visit(join(p, name));
    else if (st.isFile()) out.push(p);
  };
  for (const p of paths) visit(p);
  return out;
}

export function describeHits(hits: readonly Hit[]): string {
  return hits.map((h) => `${h.file} @${h.offset} (${h.encoding}): ${h.label}`).join('\n');
}

// ---- child processes with every output byte in a file ------------------------------------------------------

export interface ServeChild {
  proc: ChildProcess;
  port: number;
  stdoutPath: string;
  stderrPath: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `npm run serve` on `dataDir`, its stdout and stderr going straight to files (no pipe through this process,
 * so whatever it writes before a kill -9 is on disk). Node's diagnostic report is armed on SIGUSR2 and on a
 * fatal error, written to `reportDir`: the crash output a user would attach to a bug report.
 */
export async function spawnServe(options: {
  dataDir: string;
  logDir: string;
  label: string;
  reportDir: string;
  env?: Record<string, string>;
}): Promise<ServeChild> {
  const stdoutPath = join(options.logDir, `${options.label}.stdout.log`);
  const stderrPath = join(options.logDir, `${options.label}.stderr.log`);
  const out = openSync(stdoutPath, 'w');
  const err = openSync(stderrPath, 'w');
  let proc: ChildProcess;
  try {
    proc = spawn(
      process.execPath,
      [
        '--report-on-signal',
        '--report-signal=SIGUSR2',
        '--report-on-fatalerror',
        '--report-uncaught-exception',
        `--report-directory=${options.reportDir}`,
        '--import',
        'tsx',
        'core/cli/serve.ts',
        '--data-dir',
        options.dataDir,
        '--port',
        '0',
      ],
      { cwd: REPO_ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', out, err] },
    );
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = readFileSync(stdoutPath, 'utf8');
    const line = /^(http:\/\/127\.0\.0\.1:(\d+))\n/.exec(text);
    if (line) return { proc, port: Number(line[2]), stdoutPath, stderrPath, exited };
    if (gone || Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`serve did not start: ${readFileSync(stderrPath, 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface AdminRun {
  status: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command prints its own JSON shape
  json: any;
}

/**
 * `npm run admin -- --data-dir DIR --json …` with `input` on stdin (the only way a secret goes in). Both
 * streams are kept in files named after `label` under `logDir`; `stdoutDir` sends stdout elsewhere, for the
 * one command that prints a secret by design (`keys create`).
 */
export function runAdmin(options: {
  dataDir: string;
  args: string[];
  input?: string;
  logDir: string;
  label: string;
  stdoutDir?: string;
  json?: boolean;
}): AdminRun {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'core/cli/admin.ts',
      '--data-dir',
      options.dataDir,
      ...(options.json === false ? [] : ['--json']),
      ...options.args,
    ],
    { cwd: REPO_ROOT, input: options.input ?? '', encoding: 'utf8', timeout: 30_000 },
  );
  writeFileSync(join(options.stdoutDir ?? options.logDir, `${options.label}.stdout.log`), r.stdout);
  writeFileSync(join(options.logDir, `${options.label}.stderr.log`), r.stderr);
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping the order of the results. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
