// Suite 3 of #8, resource exhaustion: slowloris, slow bodies, header bombs, oversized, chunked-endless and
// early-answer bodies against a real `serve` process, each from its own attacker process, while a legitimate
// client keeps calling GET /v1/balance. Each attack must be bounded by the configured limits (headers 10 s,
// request 30 s, 16 KiB headers and body, early answers close) and the legitimate client must keep working.
// Its p99 under each attack is printed next to its quiet p99 (target ≤ 2×, judged on a quiet host:
// docs/reliability.md); the hard bound asserted here is reliability.md's "legit p99 < 200 ms under attack".
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Attack, AttackReport } from '../helpers/attacker';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { scale } from '../helpers/soak';

let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServeProcess({}, { gcProbe: true });
}, 60_000);
afterAll(async () => {
  await serve?.close();
});

/** The legitimate client: one keep-alive connection, a GET /v1/balance every 10 ms. */
async function legitimateLoad(durationMs: number): Promise<{ latencies: number[]; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const started = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: serve.port,
          path: '/v1/balance',
          agent,
          headers: { Authorization: `Bearer ${serve.key}` },
          timeout: 5_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode === 200));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) latencies.push(performance.now() - started);
    else errors += 1;
    await new Promise((r) => setTimeout(r, Math.max(0, 10 - (performance.now() - started))));
  }
  agent.destroy();
  return { latencies, errors };
}

function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN;
}

/** CPU seconds the serve process has used so far (utime + stime from /proc). */
function serveCpuSeconds(): number {
  const fields = readFileSync(`/proc/${serve.proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function runAttacker(attack: Attack, connections: number, durationMs: number): Promise<AttackReport> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/helpers/attacker.ts',
      attack,
      String(serve.port),
      serve.key,
      String(connections),
      String(durationMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve(JSON.parse(line) as AttackReport),
    );
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`attacker ${attack} exited ${code}`));
    });
  });
}

const FLOOD_MS = scale(3_000, 20_000);
/** Each attack, its size, how long it runs, and the answers it may get. */
const PLAN: Array<{
  attack: Attack;
  connections: number;
  durationMs: number;
  answers: string[];
  maxCloseMs?: number;
}> = [
  // headersTimeout 10 s, checked every second: every socket closed by 11 s (+1 s of scheduling slack).
  {
    attack: 'slowloris',
    connections: scale(200, 500),
    durationMs: 13_500,
    answers: ['408'],
    maxCloseMs: 12_000,
  },
  // requestTimeout 30 s: every slow body answered 408 by 31 s (+1 s of slack).
  {
    attack: 'slow-body',
    connections: scale(50, 200),
    durationMs: 33_500,
    answers: ['408'],
    maxCloseMs: 32_000,
  },
  { attack: 'header-bomb', connections: 4, durationMs: FLOOD_MS, answers: ['431', 'closed without answer'] },
  { attack: 'header-count', connections: 4, durationMs: FLOOD_MS, answers: ['431', 'closed without answer'] },
  { attack: 'oversized', connections: 4, durationMs: FLOOD_MS, answers: ['413', 'closed without answer'] },
  {
    attack: 'chunked-endless',
    connections: 4,
    durationMs: FLOOD_MS,
    answers: ['413', 'closed without answer'],
  },
  // Unauthenticated: 401, or the failed-authentication brake's 429 once it trips.
  {
    attack: 'early-answer',
    connections: 4,
    durationMs: FLOOD_MS,
    answers: ['401', '429', 'closed without answer'],
  },
];

it(
  'every attack is bounded by the configured limits while a legitimate client keeps working',
  async () => {
    const quiet = await legitimateLoad(3_000);
    expect(quiet.errors).toBe(0);
    // The baseline after the quiet load: its first quotes fill the caches and compile the code (+12 MB of heap,
    // measured), which the attacks then leave as they are.
    const before = await serve.collectedMemory();
    const quietP99 = p99(quiet.latencies);
    const lines = [`quiet: ${quiet.latencies.length} calls, p99 ${quietP99.toFixed(2)} ms`];

    for (const step of PLAN) {
      const cpuBefore = serveCpuSeconds();
      const [report, legit] = await Promise.all([
        runAttacker(step.attack, step.connections, step.durationMs),
        legitimateLoad(step.durationMs),
      ]);
      const cpu = serveCpuSeconds() - cpuBefore;
      const legitP99 = p99(legit.latencies);
      lines.push(
        `${step.attack}: ${report.connections} connections, answers ${JSON.stringify(report.answers)}, ` +
          `slowest close ${(report.maxCloseMs / 1000).toFixed(1)} s, ${(report.bytesOffered / 1048576).toFixed(0)} MiB offered, ` +
          `serve CPU ${cpu.toFixed(1)} s in ${(step.durationMs / 1000).toFixed(0)} s; legit ${legit.latencies.length} calls, ` +
          `${legit.errors} errors, p99 ${legitP99.toFixed(2)} ms (${(legitP99 / quietP99).toFixed(1)}× quiet)`,
      );
      expect(serve.alive(), `serve died under ${step.attack}`).toBe(true);
      expect(report.stillOpen, `${step.attack}: sockets the server left open`).toBe(0);
      for (const answer of Object.keys(report.answers))
        expect(step.answers, `${step.attack}: ${answer}`).toContain(answer);
      if (step.maxCloseMs !== undefined) expect(report.maxCloseMs).toBeLessThanOrEqual(step.maxCloseMs);
      expect(legit.errors, `${step.attack}: legitimate calls that failed`).toBe(0);
      expect(legitP99, `${step.attack}: legitimate p99`).toBeLessThan(200);
    }
    const rssAfter = serve.rssBytes();
    // What is kept, not garbage not collected yet: read after a full collection (test/helpers/serve-gc-probe.ts).
    // Read straight after the floods, the same build showed +44 to +131 MB.
    const after = await serve.collectedMemory();
    const mb = (b: number): string => (b / 1048576).toFixed(1);
    lines.push(
      `serve RSS ${mb(before.rss)} → ${mb(rssAfter)} MB, ${mb(after.rss)} MB after a full collection; ` +
        `heap ${mb(before.heap)} → ${mb(after.heap)} MB`,
    );
    console.log(`resource-exhaustion:\n  ${lines.join('\n  ')}`);
    // Tens of thousands of refused connections leave V8 heap and socket buffers that RSS does not give back
    // at once (25–77 MB seen); what this bound catches is memory kept per connection (10 KiB each over a
    // CI run's ~40,000 connections would already be 400 MB).
    expect(after.rss - before.rss).toBeLessThan(128 * 1024 * 1024);
    // Nothing per connection in the live heap: 100 bytes each over ~40,000 connections would be 4 MB.
    expect(after.heap - before.heap).toBeLessThan(8 * 1024 * 1024);
    expect(serve.integrityCheck()).toBe('ok');
  },
  scale(180_000, 900_000),
);
