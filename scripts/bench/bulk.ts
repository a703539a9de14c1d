// `BENCH_ONLY=bulk npm run bench` (#21 item 6): a 1,000-row file of shipments quoted end to end (bulk:parse,
// bulk:run) by a service in this process, in sandbox mode with the carriers' simulators in the service's
// process (as the desk runs them), paced by an account's rate limit. The figure is the run's wall time and its
// rows per second against the account's limit; the reference, in the same run, is the same file unpaced (the
// in-flight bound alone): what RateDesk itself could do. The limit, not RateDesk, must be the bound: the paced
// run's rows/s ≈ the limit, and the unpaced one well above it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoke } from '../../core/operations';
import { createRatingService } from '../../core/service';
import { fmtSteal, stealMeter } from './steal';

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);
/**
 * The paid tier's limits (contract/limits.ts): 10 per second, a burst of 20. Below what RateDesk does unpaced
 * on a 2-core host with 8 simulated carriers per row (15–28 rows/s), so the limit is what bounds the run.
 */
const RPS = Number(process.env.BENCH_BULK_RPS ?? 10);
const BURST = Number(process.env.BENCH_BULK_BURST ?? 20);
const CITIES = ['Казань', 'Санкт-Петербург', 'Екатеринбург', 'Новосибирск', 'Самара', 'Пермь', 'Уфа', 'Омск'];

function file(salt: number, rows: number): string {
  const lines = ['Номер;Откуда;Куда;Вес, г;Длина;Ширина;Высота'];
  // A weight per row never asked before in this run: each row asks the carriers (the rate cache would answer
  // a repeated shipment, and this measures quotes).
  for (let i = 0; i < rows; i++)
    lines.push(`${i + 1};Москва;${CITIES[i % CITIES.length]};${500 + i * 3 + salt};30;20;10`);
  return `${lines.join('\n')}\n`;
}

export async function benchBulk(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-bench-bulk-'));
  const steal = stealMeter();
  const service = await createRatingService({ dataDir: dir, listen: false, warmUp: false });
  try {
    const ctx = service.desk.context;
    await invoke('accounts:create', { name: 'bench', balance: 10 }, ctx);
    await invoke('accounts:set-limits', { account: 'bench', rps: RPS, burst: BURST }, ctx);
    const run = async (
      salt: number,
      account?: string,
      rows = ROWS,
    ): Promise<{ ms: number; rps: number; done: number }> => {
      const started = performance.now();
      const parsed = await invoke(
        'bulk:parse',
        { filename: 'day.csv', content: Buffer.from(file(salt, rows)).toString('base64') },
        ctx,
      );
      const result = await invoke(
        'bulk:run',
        { runKey: `bench-${salt}`, rows: parsed.shipments, ...(account ? { account } : {}) },
        ctx,
      );
      const ms = performance.now() - started;
      return { ms, rps: result.done / (result.elapsed_ms / 1000), done: result.done };
    };
    // A first run of 200 rows warms the JIT, the simulators' directories and the carriers' breakers (a cold
    // start on a busy host times some carriers out); it is not reported.
    await run(0, undefined, 200);
    const free = await run(1);
    const paced = await run(2, 'bench');
    const inFlight = String(service.settings.get('rating.max_in_flight_per_account'));
    console.log(`Bulk quote: a ${ROWS}-row file, sandbox simulators in process, 8 carriers per row:`);
    console.log(
      `  unpaced (in-flight bound ${inFlight} alone)  ${(free.ms / 1000).toFixed(1).padStart(6)} s wall  ` +
        `${free.rps.toFixed(1).padStart(7)} rows/s  (${free.done} rows)  ← what RateDesk itself does`,
    );
    console.log(
      `  paced by an account at ${RPS} rps, burst ${BURST}  ${(paced.ms / 1000).toFixed(1).padStart(6)} s wall  ` +
        `${paced.rps.toFixed(1).padStart(7)} rows/s  (${paced.done} rows)  → ${((100 * paced.rps) / RPS).toFixed(0)} % ` +
        `of the limit (target: ≈ 100 %: the limit is the bound; the burst lets the first ${BURST} rows go at once)`,
    );
    console.log(`  CPU steal over the scenario: ${fmtSteal(steal())}\n`);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) void benchBulk();
