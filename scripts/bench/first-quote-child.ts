// One start of the first-quote scenario (first-quote.ts), in a process of its own, bundled as the desktop app
// bundles the core: a rating service on a new data folder, in sandbox mode with the simulators in its own
// process at 0 ms (as the desk runs them), then desk quotes through service.desk.dispatch('quote:run') with
// their quote:progress events. Prints one JSON line (ChildResult) and exits.
//
//   node first-quote-child.cjs '{"warmUp":true,"quoteAtMs":null}'
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRatingService, type RatingService } from '../../core/service';
import type { WarmUpPhase } from '../../core/platform/warm-up';

export interface ChildSpec {
  warmUp: boolean | WarmUpPhase[];
  /**
   * null: the first quote is asked once the warm-up has settled and at least IDLE_MS after start (a clerk
   * typing the form). A number: it is asked that many ms after start, whatever the warm-up is doing.
   */
  quoteAtMs: number | null;
  /** The first quote asks only these carriers (the desk's «только этот»); all by default. */
  firstCarriers?: string[];
}

export interface QuoteTiming {
  /** From dispatch to the first carrier's answered/unavailable event. */
  firstRowMs: number;
  /** From dispatch to the last carrier's event. */
  lastCarrierMs: number;
  /** From dispatch to the dispatch's result (history row written). */
  doneMs: number;
  rates: number;
}

export interface ChildResult {
  startMs: number;
  warmUp: { totalMs: number; phases: Array<{ phase: string; ms: number }>; stopped: string | null } | null;
  first: QuoteTiming;
  /** The same route again with new weights (no rate cache hit): the warm figure of this very process. */
  warm: QuoteTiming[];
  /** A town not asked before, once everything is warm: what a new destination costs on its own. */
  newTown: QuoteTiming;
}

/** How long after start the first quote is asked at the earliest (the form takes longer to fill). */
export const IDLE_MS = 1500;

const FROM = { city: 'Москва', postal_code: '101000' };
const KAZAN = { city: 'Казань', postal_code: '420000' };
const YEKATERINBURG = { city: 'Екатеринбург', postal_code: '620000' };
let weight = 1200;

async function quote(service: RatingService, to: typeof KAZAN, carriers?: string[]): Promise<QuoteTiming> {
  const quoteKey = `bench-${weight}`;
  const t0 = performance.now();
  let first = 0;
  let last = 0;
  const off = service.desk.subscribe((event, payload) => {
    if (event !== 'quote:progress') return;
    const p = payload as { quoteKey: string; progress: { state: string } };
    if (p.quoteKey !== quoteKey || p.progress.state === 'waiting') return;
    last = performance.now() - t0;
    first ||= last;
  });
  const r = await service.desk.dispatch('quote:run', {
    quoteKey,
    shipment: {
      from: FROM,
      to,
      parcel: { weight_grams: weight++, length_cm: 30, width_cm: 20, height_cm: 10 },
      ...(carriers ? { carriers } : {}),
    },
  });
  const doneMs = performance.now() - t0;
  off();
  if (!r.ok) throw new Error(`quote:run failed: ${r.error.code} ${r.error.message}`);
  return {
    firstRowMs: first,
    lastCarrierMs: last,
    doneMs,
    rates: (r.value as { rates: unknown[] }).rates.length,
  };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ChildSpec;
  const dataDir = mkdtempSync(join(tmpdir(), 'ratedesk-first-quote-'));
  const t0 = performance.now();
  const service = await createRatingService({ dataDir, listen: false, warmUp: spec.warmUp });
  const startMs = performance.now() - t0;
  if (spec.quoteAtMs === null) {
    await service.warmedUp;
    await sleep(IDLE_MS - (performance.now() - t0));
  } else {
    await sleep(spec.quoteAtMs - (performance.now() - t0));
  }
  const first = await quote(service, KAZAN, spec.firstCarriers);
  const report = await service.warmedUp;
  await sleep(100);
  const warm: QuoteTiming[] = [];
  for (let i = 0; i < 3; i++) warm.push(await quote(service, KAZAN, spec.firstCarriers));
  const newTown = await quote(service, YEKATERINBURG);
  const result: ChildResult = {
    startMs,
    warmUp: report && { totalMs: report.totalMs, phases: report.phases, stopped: report.stopped },
    first,
    warm,
    newTown,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
