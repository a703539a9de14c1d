// `npm run bench`: every figure of docs/benchmarks.md from one run on 127.0.0.1, each compared with a
// baseline measured in the same run. Bounded: a few seconds per scenario. Throughput uses wrk when it is
// installed (apt-get install wrk), else the Node client in load.ts; the report says which.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { runLoad, type LoadResult } from './load';
import { hasWrk, runWrk } from './wrk';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const SIM_LATENCY_MS = 20;
const SHIPMENT = JSON.stringify({
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
});
const WRK = hasWrk() && process.env.BENCH_CLIENT !== 'node';

interface Child {
  proc: ChildProcess;
  port: number;
  keys: string[];
  stderr: string[];
}

async function startServer(mode: string, arg = ''): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/server.ts', mode, arg], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) =>
      reject(new Error(`bench server ${mode} exited ${code}: ${stderr.join('\n')}`)),
    );
  });
  const { port, keys } = JSON.parse(line) as { port: number; keys: string[] };
  return { proc, port, keys, stderr };
}

async function stop(c: Child): Promise<string[]> {
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
  return c.stderr;
}

/** Throughput run: wrk if available, else the Node client; `keys` rotate per request. */
async function throughput(
  c: Child,
  method: 'GET' | 'POST',
  path: string,
  keys: string[],
  connections: number,
): Promise<LoadResult> {
  const body = method === 'POST' ? SHIPMENT : undefined;
  if (WRK) {
    return runWrk({
      port: c.port,
      method,
      path,
      keys,
      connections,
      durationMs: DURATION_MS,
      ...(body ? { body } : {}),
    });
  }
  return runLoad({
    port: c.port,
    method,
    path,
    headers: (i) => ({
      Host: `127.0.0.1:${c.port}`,
      ...(keys.length ? { Authorization: `Bearer ${keys[i % keys.length]}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    }),
    ...(body ? { body } : {}),
    connections,
    durationMs: DURATION_MS,
  });
}

async function directCarriers(): Promise<{ p50Ms: number; p99Ms: number; calls: number }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/direct.ts', String(SIM_LATENCY_MS), String(DURATION_MS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: proc.stdout! }).once('line', resolve),
  );
  await new Promise((r) => proc.once('exit', r));
  return JSON.parse(line) as { p50Ms: number; p99Ms: number; calls: number };
}

const fmt = (r: LoadResult): string =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2).padStart(6)} ms  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  ` +
  `(${r.requests} requests, ${JSON.stringify(r.statuses)})`;

async function main(): Promise<void> {
  console.log(
    `RateDesk benchmarks — node ${process.version}, ${DURATION_MS / 1000} s per scenario, 127.0.0.1 only, ` +
      `throughput client: ${WRK ? 'wrk -t1' : 'Node (scripts/bench/load.ts)'}\n`,
  );

  const base = await startServer('baseline');
  const baseline = await throughput(base, 'GET', '/', [], 32);
  await stop(base);
  console.log(`baseline: bare node:http, small JSON   ${fmt(baseline)}`);

  const svc = await startServer('balance');
  const balance = await throughput(svc, 'GET', '/v1/balance', svc.keys, 32);
  await stop(svc);
  console.log(`GET /v1/balance with a key             ${fmt(balance)}`);
  console.log(
    `  → ${((100 * balance.rps) / baseline.rps).toFixed(1)} % of the baseline's req/s (target ≥ 60 %)\n`,
  );

  // Latency: one client at a time, so the figure is the cost of one call, not of queueing behind others.
  const rates = await startServer('rates', String(SIM_LATENCY_MS));
  const ratesSpec = {
    port: rates.port,
    method: 'POST' as const,
    path: '/v1/rates',
    headers: () => ({
      Host: `127.0.0.1:${rates.port}`,
      Authorization: `Bearer ${rates.keys[0]}`,
      'Content-Type': 'application/json',
    }),
    body: SHIPMENT,
    durationMs: DURATION_MS,
  };
  const rr = await runLoad({ ...ratesSpec, connections: 1 });
  const rr8 = await runLoad({ ...ratesSpec, connections: 8 });
  await stop(rates);
  const direct = await directCarriers();
  console.log(
    `POST /v1/rates, sandbox simulators at ${SIM_LATENCY_MS} ms (CDEK 1 call, Russian Post 5 calls per quote)`,
  );
  console.log(`  1 client                             ${fmt(rr)}`);
  console.log(`  8 clients                            ${fmt(rr8)}`);
  console.log(
    `  baseline: both adapters called directly, same simulators, 1 at a time: p50 ${direct.p50Ms.toFixed(2)} ms, ` +
      `p99 ${direct.p99Ms.toFixed(2)} ms (${direct.calls} calls)`,
  );
  console.log(
    `  → p50 over the simulator latency: ${(rr.p50Ms - SIM_LATENCY_MS).toFixed(2)} ms (target ≤ 3 ms): ` +
      `carrier round trips ${(direct.p50Ms - SIM_LATENCY_MS).toFixed(2)} ms + ` +
      `the service (HTTP, auth, limits, validation, durable charge) ${(rr.p50Ms - direct.p50Ms).toFixed(2)} ms\n`,
  );

  const results: Record<string, { r: LoadResult; batches: string }> = {};
  for (const mode of ['bookkeeping-single', 'bookkeeping']) {
    const c = await startServer(mode);
    const r = await throughput(c, 'POST', '/v1/rates', c.keys, 64);
    const err = await stop(c);
    const stats = err
      .map((l) => {
        try {
          return JSON.parse(l) as { batches: number; ops: number };
        } catch {
          return null;
        }
      })
      .find(Boolean);
    results[mode] = {
      r,
      batches: stats
        ? `${stats.ops} commits in ${stats.batches} transactions (${(stats.ops / stats.batches).toFixed(1)} per fsync)`
        : '',
    };
  }
  const single = results['bookkeeping-single']!;
  const grouped = results['bookkeeping']!;
  console.log(
    'durable bookkeeping: successful POST /v1/rates across 200 accounts (limits overridden), an instant',
  );
  console.log('in-process carrier, synchronous=FULL, every 200 on disk before it is sent');
  console.log(`  one commit per request               ${fmt(single.r)}`);
  console.log(`                                       ${single.batches}`);
  console.log(`  group commit                         ${fmt(grouped.r)}`);
  console.log(`                                       ${grouped.batches}`);
  console.log(
    `  → group commit: ${(grouped.r.rps / single.r.rps).toFixed(2)}× the one-commit-per-request rate`,
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
