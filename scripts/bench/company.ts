// The company server (#19): PostgreSQL against SQLite on this machine, with 1 and 3 instances. Each figure is
// next to the embedded store's, measured in the same run: GET /v1/balance and POST /v1/rates at 100 req/s
// open loop (p50/p99; an in-process carrier answers after BENCH_SIM_LATENCY_MS, so the difference is what the
// store adds, not simulators' CPU), and durable charges per second
// (closed loop, an in-process carrier that answers at once, so only the bookkeeping is measured). The database
// runs with PostgreSQL's durable defaults (fsync, synchronous_commit on), on the same 2 cores as the instances
// and the client: 3 instances cannot scale here, they share the cores with the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey, setLimits } from '../../core/operations';
import { openCompanyStore } from '../../core/store/company';
import { openDataFolder } from '../../core/store/data-folder';
import type { Store } from '../../core/store/port';
import { startCluster } from '../../test/helpers/postgres-cluster';
import { startChild, stopChild } from './children';
import { runLoad } from './load';
import { runOpenLoop, type OpenLoopResult } from './open-loop';
import { fmtSteal, stealMeter } from './steal';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SIM_LATENCY_MS = Number(process.env.BENCH_SIM_LATENCY_MS ?? 20);
const RATE = 100;
/** Closed-loop connections of the charges run, split over the instances. */
const CONNECTIONS = 48;
const ACCOUNTS = 200;

interface Setup {
  name: string;
  where: string;
  instances: number;
}

interface Figures {
  balance: OpenLoopResult;
  rates: OpenLoopResult;
  chargesPerSecond: number;
  chargeStatuses: Record<string, number>;
}

async function prepare(store: Store): Promise<string[]> {
  const clock = { now: () => new Date() };
  const keys: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const name = `bench-${i}`;
    await store.accounts.create(name, 100_000_000, clock.now().toISOString());
    if (i === 0)
      // The open-loop runs send every request with one key: its calls in flight must not be the bound.
      await store.settings.write(
        [{ name: 'rating.max_in_flight_per_account', value: '1000' }],
        clock.now().toISOString(),
      );
    await setLimits(store, clock, { account: name, rps: 10_000, burst: 100_000 });
    keys.push((await createKey(store, clock, { account: name, name: 'bench' })).secret);
  }
  await store.close();
  return keys;
}

let shipments = 0;
const shipment = (): string =>
  JSON.stringify({
    from: { city: 'Москва', postal_code: '101000' },
    to: { city: 'Казань', postal_code: '420000' },
    // A weight never sent before: the rate cache must not answer (this measures a quote that asks).
    parcel: { weight_grams: 1_000 + shipments++, length_cm: 30, width_cm: 20, height_cm: 10 },
  });

async function instances(setup: Setup, scenario: 'rates' | 'charges') {
  return Promise.all(
    Array.from({ length: setup.instances }, async () => {
      const child = await startChild('scripts/bench/company-instance.ts', [
        setup.where,
        scenario,
        String(SIM_LATENCY_MS),
      ]);
      child.proc.once('exit', (code, signal) => {
        if (code !== 0 && signal !== 'SIGTERM')
          console.log(`instance exited (${code ?? signal}): ${child.stderr.slice(-15).join('\n')}`);
      });
      return { proc: child.proc, port: (JSON.parse(child.line) as { port: number }).port };
    }),
  );
}

async function measure(setup: Setup, keys: string[]): Promise<Figures> {
  const auth = (i: number) => ({ Authorization: `Bearer ${keys[i % keys.length]!}` });
  let running = await instances(setup, 'rates');
  const ports = running.map((r) => r.port);
  const open = (spec: { method: 'GET' | 'POST'; path: string; body?: (i: number) => string }) =>
    runOpenLoop({
      port: ports[0]!,
      ports,
      ...spec,
      headers: { ...auth(0), 'Content-Type': 'application/json' },
      ratePerSecond: RATE,
      durationMs: SECONDS * 1000,
      warmupMs: 2000,
    });
  const balance = await open({ method: 'GET', path: '/v1/balance' });
  const rates = await open({ method: 'POST', path: '/v1/rates', body: shipment });
  await Promise.all(running.map((r) => stopChild(r.proc)));

  running = await instances(setup, 'charges');
  const loads = await Promise.all(
    running.map((r, n) =>
      runLoad({
        port: r.port,
        method: 'POST',
        path: '/v1/rates',
        headers: (i) => ({ ...auth(i * setup.instances + n), 'Content-Type': 'application/json' }),
        body: shipment(),
        connections: Math.ceil(CONNECTIONS / setup.instances),
        durationMs: SECONDS * 1000,
        warmupMs: 1000,
      }),
    ),
  );
  await Promise.all(running.map((r) => stopChild(r.proc)));
  const chargeStatuses: Record<string, number> = {};
  for (const l of loads)
    for (const [status, n] of Object.entries(l.statuses))
      chargeStatuses[status] = (chargeStatuses[status] ?? 0) + n;
  const ok = loads.reduce((sum, l) => sum + (l.rps * (l.statuses['200'] ?? 0)) / Math.max(1, l.requests), 0);
  return { balance, rates, chargesPerSecond: ok, chargeStatuses };
}

const ms = (x: number): string => `${x.toFixed(2).padStart(6)} ms`;
const ratio = (a: number, b: number): string => `${((100 * a) / b).toFixed(0)} %`;

export async function benchCompany(): Promise<void> {
  console.log(
    `\n== company server: PostgreSQL vs SQLite, ${RATE} req/s open loop, ${SECONDS} s per figure, ` +
      `carrier at ${SIM_LATENCY_MS} ms; charges: closed loop, ${CONNECTIONS} connections, ${ACCOUNTS} accounts`,
  );
  const steal = stealMeter();
  const cluster = await startCluster();
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-bench-company-'));
  try {
    const results: Array<{ setup: Setup; figures: Figures }> = [];
    const sqliteKeys = await prepare(openDataFolder(dir));
    const setups: Setup[] = [{ name: 'SQLite, 1 instance', where: dir, instances: 1 }];
    const pgUrl = await cluster.createDatabase('bench');
    const pgKeys = await prepare(await openCompanyStore(pgUrl));
    setups.push({ name: 'PostgreSQL, 1 instance', where: pgUrl, instances: 1 });
    setups.push({ name: 'PostgreSQL, 3 instances', where: pgUrl, instances: 3 });
    for (const setup of setups) {
      const figures = await measure(setup, setup.where === dir ? sqliteKeys : pgKeys);
      results.push({ setup, figures });
      const f = figures;
      console.log(`${setup.name}`);
      console.log(
        `  GET /v1/balance   p50 ${ms(f.balance.p50Ms)}  p99 ${ms(f.balance.p99Ms)}  ${JSON.stringify(f.balance.statuses)}`,
      );
      console.log(
        `  POST /v1/rates    p50 ${ms(f.rates.p50Ms)}  p99 ${ms(f.rates.p99Ms)}  ${JSON.stringify(f.rates.statuses)}`,
      );
      console.log(
        `  durable charges   ${f.chargesPerSecond.toFixed(0).padStart(6)} /s  ${JSON.stringify(f.chargeStatuses)}`,
      );
    }
    const [sqlite, pg1, pg3] = results.map((r) => r.figures) as [Figures, Figures, Figures];
    console.log('ratios (PostgreSQL / SQLite):');
    for (const [label, pg] of [
      ['1 instance ', pg1],
      ['3 instances', pg3],
    ] as const) {
      console.log(
        `  ${label}: balance p50 ${ratio(pg.balance.p50Ms, sqlite.balance.p50Ms)}, ` +
          `rates p50 ${(pg.rates.p50Ms - sqlite.rates.p50Ms).toFixed(2)} ms more (target ≤ 2 ms), ` +
          `charges ${ratio(pg.chargesPerSecond, sqlite.chargesPerSecond)}`,
      );
    }
    console.log(`  durable charges with 3 instances: ${pg3.chargesPerSecond.toFixed(0)} /s (target ≥ 2,000)`);
    console.log(`CPU steal during the company runs: ${fmtSteal(steal())}`);
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
