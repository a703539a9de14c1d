// `BENCH_ONLY=first-quote npm run bench` (#17): the first desk quote after start against a warm quote of the
// same process. Every start is a process of its own on a new data folder (first-quote-child.ts, bundled with
// rolldown as the desktop app bundles the core, so no TypeScript is compiled at run time), in sandbox mode
// with the simulators in the service's process at 0 ms, as the desk runs them. Each variant below runs once
// per round, in turns, so the drift of this shared host spreads over all of them.
//
// - cold: no warm-up (the service as it was before #17); warm-up phases one by one (code; code and
//   directories; all three): what each phase takes off the first quote. The first quote is asked 1.5 s after
//   start, or once the warm-up has settled if that is later.
// - asked during the warm-up: the first quote asked 150 ms after start (in the directories phase) and 600 ms
//   after (in the throwaway quote), against a cold service asked at the same moments: the warm-up must not
//   make such a quote wait longer than it would have cold. Once for CDEK alone, which needs none of the
//   directories the warm-up is downloading at 150 ms (they are dropped: core/carriers/shared-download.ts).
//   The warm quotes of a row ask what its first quote asked.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import type { ChildResult, ChildSpec, QuoteTiming } from './first-quote-child';
import { fmtSteal, stealMeter } from './steal';

const ROOT = join(import.meta.dirname, '..', '..');
const RUNS = Number(process.env.BENCH_FIRST_QUOTE_RUNS ?? 5);
const BUNDLE = join(ROOT, 'dist', 'bench', 'first-quote-child.cjs');
/** The target: the first quote within this much of a warm one, to its first row and to its last carrier. */
const TARGET_MS = 100;

interface Variant {
  label: string;
  spec: ChildSpec;
}

const VARIANTS: Variant[] = [
  { label: 'cold: no warm-up (before #17)', spec: { warmUp: false, quoteAtMs: null } },
  { label: 'warm-up: code only', spec: { warmUp: ['code'], quoteAtMs: null } },
  { label: 'warm-up: code, directories', spec: { warmUp: ['code', 'directories'], quoteAtMs: null } },
  { label: 'warm-up: all (code, directories, quote)', spec: { warmUp: true, quoteAtMs: null } },
  { label: 'cold, asked 150 ms after start', spec: { warmUp: false, quoteAtMs: 150 } },
  { label: 'warm-up, asked 150 ms after start', spec: { warmUp: true, quoteAtMs: 150 } },
  { label: 'cold, asked 600 ms after start', spec: { warmUp: false, quoteAtMs: 600 } },
  { label: 'warm-up, asked 600 ms after start', spec: { warmUp: true, quoteAtMs: 600 } },
  {
    label: 'cold, CDEK alone, asked 150 ms after start',
    spec: { warmUp: false, quoteAtMs: 150, firstCarriers: ['cdek'] },
  },
  {
    label: 'warm-up, CDEK alone, asked 150 ms after start',
    spec: { warmUp: true, quoteAtMs: 150, firstCarriers: ['cdek'] },
  },
];

/** The child as one CommonJS file, as scripts/build-electron.mjs bundles the core into the desktop app. */
async function bundleChild(): Promise<void> {
  const { build } = await import('rolldown');
  mkdirSync(join(ROOT, 'dist', 'bench'), { recursive: true });
  await build({
    cwd: ROOT,
    input: join(ROOT, 'scripts', 'bench', 'first-quote-child.ts'),
    platform: 'node',
    external: [/^node:/, new RegExp(`^(${builtinModules.join('|')})(/.*)?$`), /^better-sqlite3(\/.*)?$/],
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warn',
    output: { file: BUNDLE, format: 'cjs', codeSplitting: false },
    write: true,
  });
}

function runChild(spec: ChildSpec): Promise<ChildResult> {
  const proc = spawn(process.execPath, [BUNDLE, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  createInterface({ input: proc.stderr }).on('line', (l) => stderr.push(l));
  return new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', (l) => resolve(JSON.parse(l) as ChildResult));
    proc.once('exit', (code) => {
      if (code !== 0) reject(new Error(`first-quote child exited ${code}: ${stderr.join('\n')}`));
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(0).padStart(5)} ms`;
/** A run's warm figure: the median of its three warm quotes. */
const warmOf = (r: ChildResult, pick: (q: QuoteTiming) => number): number => median(r.warm.map(pick));

export async function benchFirstQuote(): Promise<void> {
  await bundleChild();
  const steal = stealMeter();
  const loadBefore = loadavg()[0]!.toFixed(2);
  const results = new Map<Variant, ChildResult[]>(VARIANTS.map((v) => [v, []]));
  const roundSteal: Array<number | null> = [];
  await runChild(VARIANTS[0]!.spec); // untimed: the page cache and the bundle's first read
  for (let round = 0; round < RUNS; round++) {
    const meter = stealMeter();
    for (const v of VARIANTS) results.get(v)!.push(await runChild(v.spec));
    roundSteal.push(meter());
  }

  console.log(
    `first desk quote after start (#17): sandbox, simulators at 0 ms in the service's process, Москва → Казань, ` +
      `${RUNS} starts per row (a new process and data folder each), medians`,
  );
  console.log(
    `  ${'variant'.padEnd(42)} warm-up    first quote: first row  last carrier   same process, warm: first row  last carrier   new town: last carrier`,
  );
  for (const v of VARIANTS) {
    const rs = results.get(v)!;
    const warmUp = rs.some((r) => r.warmUp) ? ms(median(rs.map((r) => r.warmUp?.totalMs ?? 0))) : '     —   ';
    console.log(
      `  ${v.label.padEnd(42)} ${warmUp}  ${ms(median(rs.map((r) => r.first.firstRowMs))).padStart(22)}  ` +
        `${ms(median(rs.map((r) => r.first.lastCarrierMs))).padStart(12)}  ` +
        `${ms(median(rs.map((r) => warmOf(r, (q) => q.firstRowMs)))).padStart(29)}  ` +
        `${ms(median(rs.map((r) => warmOf(r, (q) => q.lastCarrierMs)))).padStart(12)}  ` +
        `${ms(median(rs.map((r) => r.newTown.lastCarrierMs))).padStart(22)}`,
    );
  }
  const full = results.get(VARIANTS[3]!)!;
  const overFirst = full.map((r) => r.first.firstRowMs - warmOf(r, (q) => q.firstRowMs));
  const overLast = full.map((r) => r.first.lastCarrierMs - warmOf(r, (q) => q.lastCarrierMs));
  const phases = ['code', 'directories', 'quote'].map(
    (p) =>
      `${p} ${median(full.map((r) => r.warmUp?.phases.find((x) => x.phase === p)?.ms ?? 0)).toFixed(0)} ms`,
  );
  console.log(
    `  → with the warm-up, the first quote over a warm one of the same process: first row ` +
      `+${median(overFirst).toFixed(0)} ms, last carrier +${median(overLast).toFixed(0)} ms (target ≤ ${TARGET_MS} ms; ` +
      `per start: ${overLast.map((x) => `+${x.toFixed(0)}`).join(', ')} ms); warm-up phases ${phases.join(', ')}; ` +
      `service start to its return ${ms(median(full.map((r) => r.startMs))).trim()} (cold: ` +
      `${ms(median(results.get(VARIANTS[0]!)!.map((r) => r.startMs))).trim()})`,
  );
  console.log(
    `  (CPU steal: ${fmtSteal(steal())} over the scenario; per round ${roundSteal.map(fmtSteal).join(', ')}; ` +
      `load average ${loadBefore} before, ${loadavg()[0]!.toFixed(2)} after: the scenario keeps about one ` +
      `process busy, more means other work shared the two cores)\n`,
  );
}
