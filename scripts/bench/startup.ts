// `BENCH_ONLY=startup npm run bench`: how long the headless hosts take to start, as users start them
// (`npm run serve`, `npm run admin`) and without npm (`node dist/hosts/…`), each next to references measured
// in the same rounds: a bare `node`, a bare node:http server printing its URL (alone and under `npm run`),
// and `npm run serve` / `admin` as they ran before they were built (tsx compiling the TypeScript at every
// start). Plus the idle memory of the serving process. Every round runs each command once, in turns, so the
// drift of this shared host spreads over all of them instead of landing on one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fmtSteal, stealMeter } from './steal';

const ROOT = join(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 10);
const RSS_RUNS = 3;
/** How long the server sits idle after printing its URL before its memory is read. */
const IDLE_MS = 2000;
const TARGETS = { serve: 400, admin: 300, rssMb: 100 };

interface Command {
  label: string;
  cmd: string;
  args: string[];
  cwd: string;
  /** `url`: until the first stdout line that is a URL (then the process is stopped); `exit`: until it exits. */
  until: 'url' | 'exit';
}

/** npm reads npm_* variables as its configuration: the children start from a terminal's environment. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

/** A group of its own, so one signal reaches npm, its shell and the host below them. */
function start(c: Command) {
  return spawn(c.cmd, c.args, {
    cwd: c.cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the whole group and waits until none of it is left (the next serve needs the data folder's lock). */
async function stopGroup(pgid: number): Promise<void> {
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 10_000;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) {
      process.kill(-pgid, 'SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Milliseconds from spawn to the URL line (or to exit); throws with the process's stderr if it fails. */
async function timeOnce(c: Command): Promise<number> {
  const t0 = performance.now();
  const proc = start(c);
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const stdout = createInterface({ input: proc.stdout! });
  const elapsed = await new Promise<number>((resolve, reject) => {
    if (c.until === 'url') {
      stdout.on('line', (l) => {
        if (/^https?:\/\//.test(l)) resolve(performance.now() - t0);
      });
    }
    proc.once('exit', (code) => {
      if (c.until === 'exit' && code === 0) resolve(performance.now() - t0);
      else reject(new Error(`${c.label} exited ${code}: ${stderr.join('\n')}`));
    });
  });
  await stopGroup(proc.pid!);
  return elapsed;
}

/** The process that actually serves: the deepest descendant (npm → sh → node, tsx → node). */
function servingPid(pid: number): number {
  for (;;) {
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
    } catch {
      return pid;
    }
    if (children.length === 0) return pid;
    pid = Number(children[children.length - 1]);
  }
}

/** Resident memory of the serving process after IDLE_MS without requests, in MB; null off Linux. */
async function idleRss(c: Command): Promise<number | null> {
  const proc = start(c);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      if (/^https?:\/\//.test(l)) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`${c.label} exited ${code}`)));
  });
  await new Promise((r) => setTimeout(r, IDLE_MS));
  let rss: number | null;
  try {
    const status = readFileSync(`/proc/${servingPid(proc.pid!)}/status`, 'utf8');
    rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch {
    rss = null;
  }
  await stopGroup(proc.pid!);
  return rss;
}

interface Stats {
  median: number;
  p90: number;
  runs: number[];
}

function stats(runs: number[]): Stats {
  const sorted = [...runs].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)]!,
    p90: sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]!,
    runs,
  };
}

const ms = (x: number): string => `${x.toFixed(0).padStart(5)} ms`;
const verdict = (value: number, target: number): string => (value <= target ? 'met' : 'MISSED');

/** The 1-minute load average: on this 2-core VM other processes, not steal, are what moves these figures. */
function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
  } catch {
    return 'n/a';
  }
}

export async function benchStartup(): Promise<void> {
  const steal = stealMeter();
  const loadBefore = loadAverage();
  const work = mkdtempSync(join(tmpdir(), 'ratedesk-bench-startup-'));
  try {
    const dataDir = join(work, 'data');
    const refDir = join(work, 'npm-ref');
    mkdirSync(refDir);
    // The reference server: node:http on a free port, printing its URL as `npm run serve` does.
    writeFileSync(
      join(refDir, 'server.cjs'),
      "require('node:http').createServer((q, s) => s.end('{}')).listen(0, '127.0.0.1', function () {\n" +
        "  console.log('http://127.0.0.1:' + this.address().port);\n});\n",
    );
    const tsx = realpathSync(join(ROOT, 'node_modules', '.bin', 'tsx'));
    // `npm run serve` / `npm run admin` as they were before the build (tsx compiling core/ at every start):
    // the same npm scripts, run from this throwaway package.
    const before = (file: string): string => `cd '${ROOT}' && '${tsx}' ${file}`;
    writeFileSync(
      join(refDir, 'package.json'),
      JSON.stringify({
        name: 'npm-ref',
        private: true,
        scripts: {
          url: 'node server.cjs',
          one: 'node -e "console.log(1)"',
          'serve-tsx': before('core/cli/serve.ts'),
          'admin-tsx': before('core/cli/admin.ts'),
        },
      }),
    );
    const node = process.execPath;
    const serveArgs = ['--data-dir', dataDir, '--port', '0'];
    const adminArgs = ['--data-dir', dataDir, 'accounts', 'list'];
    const command = (label: string, cmd: string, args: string[], cwd: string, until: Command['until']) => ({
      label,
      cmd,
      args,
      cwd,
      until,
    });
    const npmRun = (label: string, script: string, args: string[], cwd: string, until: Command['until']) =>
      command(label, 'npm', ['run', script, ...(args.length ? ['--', ...args] : [])], cwd, until);
    const refs = {
      node: command('node -e "console.log(1)"', node, ['-e', 'console.log(1)'], refDir, 'exit'),
      npmNode: npmRun('npm run of the same', 'one', [], refDir, 'exit'),
      bare: command('node server.cjs (bare node:http)', node, ['server.cjs'], refDir, 'url'),
      npmBare: npmRun('npm run of the same', 'url', [], refDir, 'url'),
    };
    const serve = {
      npm: npmRun('npm run serve -- --port 0', 'serve', serveArgs, ROOT, 'url'),
      node: command('node dist/hosts/serve.mjs', node, ['dist/hosts/serve.mjs', ...serveArgs], ROOT, 'url'),
      tsx: npmRun('before: npm run serve (tsx)', 'serve-tsx', serveArgs, refDir, 'url'),
    };
    const admin = {
      npm: npmRun('npm run admin -- accounts list', 'admin', adminArgs, ROOT, 'exit'),
      node: command('node dist/hosts/admin.mjs', node, ['dist/hosts/admin.mjs', ...adminArgs], ROOT, 'exit'),
      tsx: npmRun('before: npm run admin (tsx)', 'admin-tsx', adminArgs, refDir, 'exit'),
    };
    const all: Command[] = [...Object.values(refs), ...Object.values(serve), ...Object.values(admin)];

    // Builds dist/hosts/ if it is stale and creates the data folder; the untimed round then writes the
    // code caches and warms the OS file cache, so the rounds measure what users get on every later start.
    const built = spawnSync(node, ['scripts/run-host.mjs', 'admin', ...adminArgs], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`npm run admin failed: ${built.stderr}`);
    for (const c of all) await timeOnce(c);

    const times = new Map<Command, number[]>(all.map((c) => [c, []]));
    for (let round = 0; round < RUNS; round++) {
      for (const c of all) times.get(c)!.push(await timeOnce(c));
    }
    // Since #17 the service warms itself up after start (a throwaway sandbox quote, the carriers'
    // directories): idle, it holds what a first rates call would make it hold. --no-warm-up is the idle
    // process that has done nothing yet, as every start was before.
    const noWarmUp = command(
      'node dist/hosts/serve.mjs --no-warm-up',
      node,
      ['dist/hosts/serve.mjs', ...serveArgs, '--no-warm-up'],
      ROOT,
      'url',
    );
    const rss = { host: [] as number[], cold: [] as number[], bare: [] as number[], tsx: [] as number[] };
    for (let round = 0; round < RSS_RUNS; round++) {
      for (const [key, c] of [
        ['host', serve.node],
        ['cold', noWarmUp],
        ['bare', refs.bare],
        ['tsx', serve.tsx],
      ] as const) {
        const mb = await idleRss(c);
        if (mb !== null) rss[key].push(mb);
      }
    }

    const s = (c: Command): Stats => stats(times.get(c)!);
    const line = (c: Command, note = ''): string =>
      `  ${c.label.padEnd(36)} median ${ms(s(c).median)}  p90 ${ms(s(c).p90)}${note ? `  ${note}` : ''}`;
    console.log(
      `startup: ${RUNS} rounds, each command once per round in turns; from spawn to the URL line on stdout ` +
        '(serve, servers) or to exit (admin, node -e); the hosts built in dist/hosts/, their code caches warm',
    );
    console.log(line(refs.node, 'reference: a bare Node start'));
    console.log(line(refs.npmNode, "reference: npm run adds npm's own start and exit"));
    console.log(line(refs.bare, 'reference: a bare server printing its URL'));
    console.log(line(refs.npmBare, "reference: npm run adds npm's own start"));
    const target = (c: Command, limit: number) => `target ≤ ${limit} ms: ${verdict(s(c).median, limit)}`;
    console.log(line(serve.npm, target(serve.npm, TARGETS.serve)));
    console.log(line(serve.node));
    console.log(line(serve.tsx));
    console.log(line(admin.npm, target(admin.npm, TARGETS.admin)));
    console.log(line(admin.node));
    console.log(line(admin.tsx));
    // Where the time of `npm run …` goes, from the medians: npm (npm run of the reference minus the
    // reference), a bare Node start, the host's own work (the built host minus a bare Node start), and the
    // rest: scripts/run-host.mjs (its modules and the staleness check), and noise.
    const split = (viaNpm: Command, direct: Command, npmRef: Command, ref: Command, what: string) => {
      const npm = s(npmRef).median - s(ref).median;
      const start = s(refs.node).median;
      const own = s(direct).median - start;
      const rest = s(viaNpm).median - npm - s(direct).median;
      return (
        `  → ${viaNpm.label.split(' --')[0]}: npm ${npm.toFixed(0)} + Node start ${start.toFixed(0)} + ` +
        `${what} ${own.toFixed(0)} + run-host.mjs and noise ${rest.toFixed(0)} ms`
      );
    };
    console.log(split(serve.npm, serve.node, refs.npmBare, refs.bare, "serve's own start up to its URL"));
    console.log(split(admin.npm, admin.node, refs.npmNode, refs.node, "admin's own run"));
    const mb = (xs: number[]): string => (xs.length ? `${stats(xs).median.toFixed(1)} MB` : 'n/a');
    const rssVerdict = (xs: number[]): string =>
      xs.length ? ` (target ≤ ${TARGETS.rssMb} MB: ${verdict(stats(xs).median, TARGETS.rssMb)})` : '';
    console.log(
      `  idle RSS of the serving process, ${IDLE_MS / 1000} s after its URL (median of ${RSS_RUNS}): ` +
        `dist/hosts/serve.mjs ${mb(rss.host)}${rssVerdict(rss.host)}, warmed up (sandbox: what a first rates ` +
        `call makes it hold); with --no-warm-up ${mb(rss.cold)}${rssVerdict(rss.cold)}; ` +
        `bare server ${mb(rss.bare)}; before (tsx) ${mb(rss.tsx)}`,
    );
    console.log(
      `  (CPU steal during the startup runs: ${fmtSteal(steal())}; load average ${loadBefore} before, ` +
        `${loadAverage()} after; the bench keeps about one process busy, more means other work shared the two cores)\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
