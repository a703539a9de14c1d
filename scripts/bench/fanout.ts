// Two scenarios of #10 (docs/benchmarks.md), both under open-loop load (requests leave at a fixed rate,
// latency counted from when each was due):
//   fan-out: eight carriers at different fixed latencies, queried by every POST /v1/rates; p50 and p99
//     against the slowest carrier's latency (targets + 3 ms and + 15 ms). Carriers in the service's process
//     (a timer each) and behind eight servers of their own over HTTP; the floor is a bare server answering
//     after the slowest latency at the same rate.
//   cache hit: the same shipment again and again, every answer from the rate cache (target p50 ≤ 2 ms),
//     next to a bare server answering at once and GET /v1/balance on the same service, at the same rate.
// Scenarios and references run in turns, round by round; the figures are medians over the rounds.
import { loadavg } from 'node:os';
import { startChild, startServer, stopChild, type Child } from './children';
import { FANOUT_LATENCIES_MS } from './fanout-carriers';
import { runOpenLoop, type OpenLoopResult, type OpenLoopSpec } from './open-loop';
import { fmtSteal, stealMeter } from './steal';
import { makeQuoteRequest } from '../../core/carriers/quote-request';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 5);
const RATE = Number(process.env.BENCH_OPEN_LOOP_RATE ?? 100);
const SIM_LATENCY_MS = Number(process.env.BENCH_SIM_LATENCY_MS ?? 20);
const TARGETS = { fanoutP50: 3, fanoutP99: 15, cacheP50: 2 };

const SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};
const SAME_SHIPMENT = JSON.stringify(SHIPMENT);
/**
 * A weight never sent before in this process, so the rate cache never answers a fan-out request (runs and
 * rounds restart their request numbers at 0). Up to 1 000 t: far more requests than a bench run makes.
 */
let shipments = 0;
const freshShipment = (): string =>
  JSON.stringify({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 1_000 + shipments++ } });

function spec(c: Child, method: 'GET' | 'POST', path: string, body?: (i: number) => string): OpenLoopSpec {
  return {
    port: c.port,
    method,
    path,
    headers: {
      Host: `127.0.0.1:${c.port}`,
      // The bare servers have no keys: they get the same request without one.
      ...(c.keys[0] ? { Authorization: `Bearer ${c.keys[0]}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
    ratePerSecond: RATE,
    durationMs: DURATION_MS,
    // Long enough for the JIT to settle on every path a request takes.
    warmupMs: 2_000,
  };
}

/** The round with the median p50 of these runs (its p99 comes with it). */
function medianRun(runs: OpenLoopResult[]): OpenLoopResult {
  return [...runs].sort((a, b) => a.p50Ms - b.p50Ms)[Math.floor(runs.length / 2)]!;
}

const ms = (x: number): string => `${x.toFixed(2).padStart(6)} ms`;
const fmt = (r: OpenLoopResult): string =>
  `p50 ${ms(r.p50Ms)}  p99 ${ms(r.p99Ms)}  max ${ms(r.maxMs)}  (${r.requests} requests, ` +
  `${JSON.stringify(r.statuses)}, client lag ≤ ${r.maxSendLagMs.toFixed(1)} ms)`;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** Runs each scenario once per round, in turns; returns every scenario's runs. */
async function inTurns(scenarios: Record<string, OpenLoopSpec>): Promise<Record<string, OpenLoopResult[]>> {
  const runs: Record<string, OpenLoopResult[]> = Object.fromEntries(
    Object.keys(scenarios).map((k) => [k, []]),
  );
  // One untimed round first: the first round of fresh processes reads higher (JIT, idle VM wake-ups).
  for (const s of Object.values(scenarios)) await runOpenLoop({ ...s, durationMs: 1_000 });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, s] of Object.entries(scenarios)) runs[name]!.push(await runOpenLoop(s));
  }
  return runs;
}

export async function benchFanout(): Promise<void> {
  const steal = stealMeter();
  const loadBefore = load();
  const latencies = FANOUT_LATENCIES_MS;
  const slowest = Math.max(...latencies);
  const carriers = await startChild('scripts/bench/fanout-carriers.ts', [latencies.join(',')]);
  const urls = (JSON.parse(carriers.line) as { urls: string[] }).urls;
  const inProcess = await startServer('fanout', latencies.join(','));
  const overHttp = await startServer('fanout-http', JSON.stringify(urls));
  const floor = await startServer('delayed', String(slowest));
  const runs = await inTurns({
    inProcess: spec(inProcess, 'POST', '/v1/rates', freshShipment),
    overHttp: spec(overHttp, 'POST', '/v1/rates', freshShipment),
    floor: spec(floor, 'POST', '/v1/rates', freshShipment),
  });
  await Promise.all([inProcess, overHttp, floor].map((c) => stopChild(c.proc)));
  await stopChild(carriers.proc);

  const verdict = (r: OpenLoopResult): string => {
    const p50 = r.p50Ms - slowest;
    const p99 = r.p99Ms - slowest;
    return (
      `p50 = slowest + ${p50.toFixed(2)} ms (target + ${TARGETS.fanoutP50}: ${p50 <= TARGETS.fanoutP50 ? 'met' : 'MISSED'}), ` +
      `p99 = slowest + ${p99.toFixed(2)} ms (target + ${TARGETS.fanoutP99}: ${p99 <= TARGETS.fanoutP99 ? 'met' : 'MISSED'})`
    );
  };
  const perRound = (rs: OpenLoopResult[]): string =>
    rs.map((r) => `+${(r.p50Ms - slowest).toFixed(2)}/+${(r.p99Ms - slowest).toFixed(2)}`).join(', ');
  const ip = medianRun(runs.inProcess!);
  const http = medianRun(runs.overHttp!);
  const fl = medianRun(runs.floor!);
  console.log(
    `fan-out: POST /v1/rates to 8 carriers at ${latencies.join('/')} ms (slowest ${slowest} ms), ` +
      `open loop at ${RATE} req/s, a new shipment per request (no cache hits)`,
  );
  console.log(`  carriers in the service's process      ${fmt(ip)}`);
  console.log(`    → ${verdict(ip)}`);
  console.log(`  each carrier its own server, HTTP      ${fmt(http)}`);
  console.log(`    → ${verdict(http)}`);
  console.log(`  floor: bare node:http answering after ${slowest} ms, same load: ${fmt(fl)}`);
  console.log(
    `    (one round trip to a process that waits ${slowest} ms: p50 + ${(fl.p50Ms - slowest).toFixed(2)} ms, ` +
      `p99 + ${(fl.p99Ms - slowest).toFixed(2)} ms)`,
  );
  console.log(
    `  medians of ${ROUNDS} rounds in turns; per round, p50/p99 over the slowest: in-process ${perRound(runs.inProcess!)}; ` +
      `HTTP ${perRound(runs.overHttp!)}; floor ${perRound(runs.floor!)}`,
  );
  console.log(`  CPU steal ${fmtSteal(steal())}, load average ${loadBefore} → ${load()}\n`);
}

export async function benchCacheHit(): Promise<void> {
  const steal = stealMeter();
  const loadBefore = load();
  // Live mode against the two simulators in their own processes, as in the rates scenario: the first
  // request of the shipment asks the carriers, every later one is answered from the rate cache.
  const sims = {
    russianPost: await startChild('scripts/bench/simulators.ts', ['russian-post', String(SIM_LATENCY_MS)]),
    cdek: await startChild('scripts/bench/simulators.ts', ['cdek', String(SIM_LATENCY_MS)]),
  };
  const service = await startServer(
    'rates-remote',
    JSON.stringify({ russianPost: sims.russianPost.url, cdek: sims.cdek.url }),
  );
  const bare = await startServer('baseline');
  const runs = await inTurns({
    hit: spec(service, 'POST', '/v1/rates', () => SAME_SHIPMENT),
    balance: spec(service, 'GET', '/v1/balance'),
    bare: spec(bare, 'GET', '/'),
  });
  // For scale: the same service asking the carriers (a new shipment each time), one round.
  const miss = await runOpenLoop(spec(service, 'POST', '/v1/rates', freshShipment));
  await Promise.all([service, bare].map((c) => stopChild(c.proc)));
  await Promise.all([stopChild(sims.russianPost.proc), stopChild(sims.cdek.proc)]);

  const hit = medianRun(runs.hit!);
  const balance = medianRun(runs.balance!);
  const bareRun = medianRun(runs.bare!);
  console.log(
    `cache hit: POST /v1/rates, the same shipment every time (CDEK and Russian Post simulators at ${SIM_LATENCY_MS} ms ` +
      `in their own processes; every answer after the first from the rate cache), open loop at ${RATE} req/s`,
  );
  console.log(`  cached POST /v1/rates                  ${fmt(hit)}`);
  console.log(
    `    → p50 ${hit.p50Ms.toFixed(2)} ms (target ≤ ${TARGETS.cacheP50} ms: ` +
      `${hit.p50Ms <= TARGETS.cacheP50 ? 'met' : 'MISSED'}); still charged, one durable commit each`,
  );
  console.log(`  reference: GET /v1/balance, same service ${fmt(balance)}`);
  console.log(`  reference: bare node:http, small JSON  ${fmt(bareRun)}`);
  console.log(`  for scale: not cached (carriers asked)  ${fmt(miss)}`);
  console.log(
    `  medians of ${ROUNDS} rounds in turns; p50 per round: cached ${runs.hit!.map((r) => r.p50Ms.toFixed(2)).join(', ')}; ` +
      `balance ${runs.balance!.map((r) => r.p50Ms.toFixed(2)).join(', ')}; bare ${runs.bare!.map((r) => r.p50Ms.toFixed(2)).join(', ')} ms`,
  );
  console.log(`  CPU steal ${fmtSteal(steal())}, load average ${loadBefore} → ${load()}\n`);
}

/**
 * #11: the same fan-out with the eight carriers' own simulators (their real wire protocols), each in a process
 * of its own at a different fixed latency, the service in sandbox mode. Some adapters make two calls in a row
 * (a directory lookup, then the price; Dellin's door leg, then its terminal leg) and 5Post none (its catalogue),
 * so the floor is not one latency: the reference is the eight adapters called directly from this process, all
 * at once per quote, against the same simulators, and the targets are read against it as well as against the
 * slowest simulator's latency.
 */
export async function benchFanoutSimulators(): Promise<void> {
  const steal = stealMeter();
  const loadBefore = load();
  const { builtInCarriers } = await import('../../core/platform/built-in-carriers');
  const carriers = await builtInCarriers();
  const { openStore } = await import('../../core/store');
  const { SettingsView } = await import('../../core/settings/view');
  // 5Post answers from its catalogue: its latency only delays the first download, so it gets the shortest.
  const order = ['5post', 'russian-post', 'cdek', 'boxberry', 'dpd', 'yandex', 'pek', 'dellin'];
  const latencyOf = new Map(order.map((code, i) => [code, FANOUT_LATENCIES_MS[i] ?? 20]));
  const slowest = Math.max(...latencyOf.values());
  const sims = await Promise.all(
    carriers.map(async (c) => ({
      code: c.code,
      child: await startChild('scripts/bench/carrier-simulator.ts', [
        c.code,
        String(latencyOf.get(c.code) ?? 20),
      ]),
    })),
  );
  const urls = Object.fromEntries(
    sims.map((s) => [s.code, (JSON.parse(s.child.line) as { url: string }).url]),
  );

  // Reference: the adapters called directly, the eight at once per quote, one quote at a time.
  const store = openStore(':memory:');
  const settings = new SettingsView(store.settings);
  const adapters = carriers.map((c) => c.create({ baseUrl: urls[c.code]!, simulated: true }, settings));
  const request = () => {
    const s = JSON.parse(freshShipment()) as typeof SHIPMENT;
    return {
      from: { city: s.from.city, postalCode: s.from.postal_code },
      to: { city: s.to.city, postalCode: s.to.postal_code },
      parcel: s.parcel,
      declaredValueKopecks: 0,
    };
  };
  const direct: number[] = [];
  const perCarrier = new Map<string, number[]>(adapters.map((a) => [a.code, []]));
  let answered = new Set<string>();
  for (let i = 0; i < 20 + 300; i++) {
    const req = makeQuoteRequest(request());
    const started = performance.now();
    const outcomes = await Promise.all(
      adapters.map(async (a) => {
        const t0 = performance.now();
        const out = await a.quote(req, { signal: AbortSignal.timeout(5_000) });
        if (i >= 20) perCarrier.get(a.code)!.push(performance.now() - t0);
        return [a.code, out.ok] as const;
      }),
    );
    if (i >= 20) direct.push(performance.now() - started);
    answered = new Set(outcomes.filter(([, ok]) => ok).map(([c]) => c));
  }
  await store.close();
  const pct = (xs: number[], q: number): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  };
  const directP50 = pct(direct, 0.5);
  const directP99 = pct(direct, 0.99);

  const service = await startServer('fanout-sims', JSON.stringify(urls));
  const runs = await inTurns({ sims: spec(service, 'POST', '/v1/rates', freshShipment) });
  await stopChild(service.proc);
  await Promise.all(sims.map((s) => stopChild(s.child.proc)));

  const r = medianRun(runs.sims!);
  const vsDirect50 = r.p50Ms - directP50;
  const vsDirect99 = r.p99Ms - directP99;
  console.log(
    `fan-out, the eight carriers' own simulators (#11): POST /v1/rates in sandbox mode, each simulator in its own ` +
      `process at ${order.map((c) => `${c} ${latencyOf.get(c)}`).join(', ')} ms; open loop at ${RATE} req/s, ` +
      `a new shipment per request`,
  );
  console.log(`  the service                            ${fmt(r)}`);
  console.log(
    `  reference: the 8 adapters called directly, all at once, one quote at a time: p50 ${ms(directP50)}  ` +
      `p99 ${ms(directP99)} (${direct.length} quotes; answered: ${[...answered].sort().join(', ')})`,
  );
  console.log(
    `    per carrier, direct p50: ${[...perCarrier]
      .map(([c, xs]) => `${c} ${pct(xs, 0.5).toFixed(1)}`)
      .join(', ')} ms`,
  );
  console.log(
    `    → over the direct fan-out: p50 + ${vsDirect50.toFixed(2)} ms (target + ${TARGETS.fanoutP50}: ` +
      `${vsDirect50 <= TARGETS.fanoutP50 ? 'met' : 'MISSED'}), p99 + ${vsDirect99.toFixed(2)} ms (target + ` +
      `${TARGETS.fanoutP99}: ${vsDirect99 <= TARGETS.fanoutP99 ? 'met' : 'MISSED'}); over the slowest simulator ` +
      `(${slowest} ms): p50 + ${(r.p50Ms - slowest).toFixed(2)}, p99 + ${(r.p99Ms - slowest).toFixed(2)} ms`,
  );
  console.log(
    `  medians of ${ROUNDS} rounds; per round p50/p99: ${runs.sims!.map((x) => `${x.p50Ms.toFixed(2)}/${x.p99Ms.toFixed(2)}`).join(', ')} ms`,
  );
  console.log(`  CPU steal ${fmtSteal(steal())}, load average ${loadBefore} → ${load()}\n`);
}
