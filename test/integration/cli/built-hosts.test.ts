// `npm run serve` and `npm run admin` as they run since they are built (scripts/build-hosts.mjs): the hosts
// built into a temporary folder, then serve and admin from that build on one data folder; the launcher
// (scripts/run-host.mjs) rebuilding a stale build; the loader (scripts/host-loader.mjs) mapping stack traces
// to the TypeScript and keeping its code cache only for the bundle it was made from.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, SHIPMENT } from '../../helpers/service';

const ROOT = resolve(import.meta.dirname, '../../..');
const BUILD_TIMEOUT = 120_000;

let work: string;
let out: string;
const procs: ChildProcess[] = [];
const dirs: string[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ratedesk-built-hosts-'));
  // The bundles load better-sqlite3 from a node_modules folder above them, as dist/hosts/ does.
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'junction');
  out = join(work, 'hosts');
  const r = spawnSync(process.execPath, ['scripts/build-hosts.mjs', '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
}, BUILD_TIMEOUT);

afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ratedesk-built-data-'));
  dirs.push(d);
  return d;
}

async function serve(args: string[]): Promise<{ proc: ChildProcess; url: string; stderr: string[] }> {
  const proc = spawn(process.execPath, [join(out, 'serve.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  procs.push(proc);
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const url = await new Promise<string>((done, fail) => {
    createInterface({ input: proc.stdout! }).once('line', done);
    proc.once('exit', (code) => fail(new Error(`serve exited ${code}: ${stderr.join('\n')}`)));
  });
  return { proc, url, stderr };
}

/** One run of admin: from the build (`node <out>/admin.mjs`) or from the TypeScript (as before the build). */
function admin(from: 'build' | 'tsx', args: string[]) {
  const entry = from === 'build' ? [join(out, 'admin.mjs')] : ['--import', 'tsx', 'core/cli/admin.ts'];
  return spawnSync(process.execPath, [...entry, ...args], { cwd: ROOT, input: '', encoding: 'utf8' });
}

describe('the built hosts (dist/hosts/)', () => {
  it('serve prints its URL and answers /v1; admin from the build works beside it', async () => {
    const dir = tempDir();
    const created = admin('build', [
      '--data-dir',
      dir,
      '--json',
      'keys',
      'create',
      '--account',
      'default',
      '--name',
      't',
    ]);
    expect(created.status, created.stderr).toBe(0);
    const { secret } = JSON.parse(created.stdout) as { secret: string };

    const s = await serve(['--data-dir', dir, '--port', '0']);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(s.url).port);
    const auth = { Authorization: `Bearer ${secret}` };
    const balance = await rawRequest(port, { path: '/v1/balance', headers: auth });
    expect(balance.status).toBe(200);
    expect(balance.json).toEqual({ balance: 100 });
    // A quote goes through the carriers' HTTP client (undici, bundled) to the sandbox simulators.
    const rates = await rawRequest(port, {
      method: 'POST',
      path: '/v1/rates',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(SHIPMENT),
    });
    expect(rates.status, rates.text).toBe(200);
    expect((rates.json as { rates: unknown[] }).rates.length).toBeGreaterThan(0);

    const list = admin('build', ['--data-dir', dir, '--json', 'accounts', 'list']);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ name: 'default', balance: 99 }]);

    const exit = new Promise<number | null>((r) => s.proc.once('exit', (code) => r(code)));
    s.proc.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(s.stderr.join('\n')).toMatch(/SANDBOX MODE[\s\S]*SIGTERM: stopping/);
  });

  it('print exactly what the TypeScript hosts print', () => {
    const dir = tempDir();
    expect(admin('build', ['--data-dir', dir, 'accounts', 'list']).status).toBe(0);
    for (const args of [
      ['--json', 'accounts', 'list'],
      ['accounts', 'list'],
      ['--json', 'settings', 'get'],
      ['--help'],
      ['nonsense'],
    ]) {
      const built = admin('build', ['--data-dir', dir, ...args]);
      const before = admin('tsx', ['--data-dir', dir, ...args]);
      expect({ args, status: built.status, stdout: built.stdout, stderr: built.stderr }).toEqual({
        args,
        status: before.status,
        stdout: before.stdout,
        stderr: before.stderr,
      });
    }
    const help = spawnSync(process.execPath, [join(out, 'serve.mjs'), '--help'], { encoding: 'utf8' });
    const helpBefore = spawnSync(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(helpBefore.stdout);
  }, 30_000);

  it(
    'npm run admin (scripts/run-host.mjs) rebuilds a stale build, saying so in one line on stderr only',
    () => {
      const dir = tempDir();
      const run = () =>
        spawnSync(
          process.execPath,
          ['scripts/run-host.mjs', '--out', out, 'admin', '--data-dir', dir, '--json', 'accounts', 'list'],
          {
            cwd: ROOT,
            encoding: 'utf8',
          },
        );
      // Older than every source: as after editing a file of core/.
      utimesSync(join(out, 'admin.mjs'), 1, 1);
      const stale = run();
      expect(stale.status, stale.stderr).toBe(0);
      expect(stale.stderr).toMatch(/^Building .*hosts\/ \(.* changed since the last build\) …\n$/);
      expect(JSON.parse(stale.stdout)).toMatchObject([{ name: 'default' }]);
      expect(statSync(join(out, 'admin.mjs')).mtimeMs).toBeGreaterThan(1000);

      const fresh = run();
      expect(fresh.status).toBe(0);
      expect(fresh.stderr).toBe('');
      expect(fresh.stdout).toBe(stale.stdout);
    },
    BUILD_TIMEOUT,
  );
});

describe('scripts/host-loader.mjs', () => {
  it('maps stack frames to the TypeScript source and keeps a code cache only for its own bundle', async () => {
    const dir = join(work, 'loader');
    mkdirSync(dir);
    // Line 4 of the source throws; the bundle puts it elsewhere.
    writeFileSync(
      join(dir, 'boom.ts'),
      "const label: string = process.argv[2] ?? 'none';\n\nexport function boom(): never {\n  throw new Error(`boom ${label}`);\n}\n\nboom();\n",
    );
    await build({
      input: join(dir, 'boom.ts'),
      platform: 'node',
      logLevel: 'silent',
      output: { file: join(dir, 'boom.cjs'), format: 'cjs', sourcemap: true },
    });
    const loader = pathToFileURL(join(ROOT, 'scripts', 'host-loader.mjs')).href;
    const bundle = pathToFileURL(join(dir, 'boom.cjs')).href;
    // argv[1] becomes the bundle's path, as for `node boom.cjs x`.
    const run = () =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { runBundle } from '${loader}'; runBundle(new URL('${bundle}'));`,
          'argv1',
          'x',
        ],
        { encoding: 'utf8' },
      );
    const cache = join(dir, 'boom.cjs.cache');

    const first = run();
    expect(first.status).toBe(1);
    expect(first.stderr).toContain('Error: boom x');
    expect(first.stderr).toContain(`at boom (${join(dir, 'boom.ts')}:4:9)`);
    // (Above the stack, Node's excerpt of the line that threw still quotes the bundle.)
    expect(first.stderr.split('\n').filter((l) => l.startsWith('    at ') && l.includes('boom.cjs'))).toEqual(
      [],
    );
    // Written at exit, even after an uncaught exception.
    expect(existsSync(cache)).toBe(true);
    const written = readFileSync(cache);

    // Accepted: not written again.
    run();
    expect(readFileSync(cache).equals(written)).toBe(true);

    // Another bundle (same file name): the old cache is ignored and replaced.
    appendFileSync(join(dir, 'boom.cjs'), '\n// changed\n');
    const changed = run();
    expect(changed.stderr).toContain(`at boom (${join(dir, 'boom.ts')}:4:9)`);
    expect(readFileSync(cache).equals(written)).toBe(false);
  });
});
