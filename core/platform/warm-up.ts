// The service's warm-up: right after start, in the background, it does what would otherwise make the first
// quote after start slow (1.6 s to its first row in the desk, 0.23 s for the quotes after it; measured in
// docs/benchmarks.md, "First quote after start"). Three phases, each only when the one before finished and no
// quote has started meanwhile:
//
//   code         the enabled carriers' heavy halves and their adapters (the registry's carrier set), and
//                undici with its pool (core/carriers/http.ts loads it on first use);
//   directories  each adapter's `prepare`: what every quote of that carrier needs whatever the route and then
//                keeps (Boxberry's city list; against a simulator, 5Post's catalogue);
//   quote        sandbox only: one throwaway quote to the simulators on the route the desk used last (else
//                Москва → Санкт-Петербург). It fetches the per-place directories of that origin (CDEK's city
//                code, Yandex's drop-off point, Dellin's terminal …) and runs every adapter, mapper and zod
//                schema of a quote once, so the JIT has compiled them. It goes through the aggregator with a
//                health board of its own and no breaker or rate cache, and is written nowhere: no history, no
//                balance, no carrier status, no desk event.
//
// Live mode gets `code` and `directories` only (the adapters decide what their `prepare` may fetch from the
// real carrier: Boxberry's list, one GET kept for a day; never 5Post's 55 MB catalogue), and nothing at all
// for a carrier without credentials: its adapter is a stub with no `prepare`. No price call is made to a real
// carrier. A carrier pointed at its simulator in live mode (endpoint = simulator) is quoted like sandbox.
//
// A real quote (desk or /v1) that starts during the warm-up stops it: the throwaway quote is aborted and no
// further phase runs. Downloads under way are shared with that quote (each adapter keeps one download in
// flight), so it waits for no work it would not have done itself.
import { setMaxListeners } from 'node:events';
import { preloadCarrierClient } from '../carriers/http';
import type { CarrierAdapter } from '../carriers/types';
import type { Shipment } from '../contract/v1';
import { quoteAll, type CarrierSet } from '../rating/aggregator';
import { HealthBoard } from '../rating/health';
import type { Logger } from '../util/logger';
import { warmUpRoute, type WarmUpPlace } from './warm-up-route';

export { warmUpRoute, type WarmUpPlace };

export const WARM_UP_PHASES = ['code', 'directories', 'quote'] as const;
export type WarmUpPhase = (typeof WARM_UP_PHASES)[number];

export interface WarmUpReport {
  /** sandbox: every quote is answered by simulators; live: at least one carrier is real. */
  mode: 'sandbox' | 'live';
  /**
   * The phases that ran to their end, in order, with how long each took; a phase with nothing to do (no
   * adapter with `prepare`, no simulated carrier to quote) is left out.
   */
  phases: Array<{ phase: WarmUpPhase; ms: number }>;
  /** Why it ended early: a real quote started, or the service closed; null when it ran through. */
  stopped: 'quote' | 'close' | null;
  /** From start to settle, ms. */
  totalMs: number;
}

export interface WarmUpDeps {
  carrierSet(): Promise<CarrierSet>;
  /** Whether the adapter of `code` answers from a simulator (registry.simulated). */
  simulated(code: string): boolean;
  /** Whether every quote is simulated (the sandbox setting, or fixed test adapters). */
  sandbox(): boolean;
  /** The throwaway quote's route: read when that phase starts (history may have changed meanwhile). */
  route(): Promise<{ from: WarmUpPlace; to: WarmUpPlace }>;
  deadlineMs(): number;
  carrierTimeoutMs(): number;
  logger: Logger;
  /** Only these phases (the benchmark's breakdown); all by default. */
  phases?: readonly WarmUpPhase[];
}

/** The throwaway quote's parcel: an ordinary box (the M preset), 1 kg. */
const WARM_UP_PARCEL = { weight_grams: 1000, length_cm: 30, width_cm: 20, height_cm: 10 } as const;

export class WarmUp {
  /** Settles (never rejects) when the warm-up has finished, stopped or failed. */
  readonly settled: Promise<WarmUpReport>;
  private readonly controller = new AbortController();
  private stoppedBy: WarmUpReport['stopped'] = null;
  private done = false;

  constructor(private readonly deps: WarmUpDeps) {
    // One listener per carrier of the throwaway quote and per download it waits for: more than Node's leak
    // warning expects, by design (as the aggregator's own signals).
    setMaxListeners(64, this.controller.signal);
    // setImmediate: the host's own start (printing its URL, opening its window) goes first.
    this.settled = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run())
      .finally(() => {
        this.done = true;
      });
  }

  /** A real quote has started: the warm-up stops where it is (see the header). */
  quoteStarted(): void {
    this.stop('quote');
  }

  /** The service is closing. */
  close(): Promise<WarmUpReport> {
    this.stop('close');
    return this.settled;
  }

  private stop(why: 'quote' | 'close'): void {
    if (this.done || this.stoppedBy) return;
    this.stoppedBy = why;
    this.controller.abort(new DOMException(`warm-up stopped: ${why}`, 'AbortError'));
  }

  private async run(): Promise<WarmUpReport> {
    const started = performance.now();
    const mode = this.deps.sandbox() ? 'sandbox' : 'live';
    const phases: WarmUpReport['phases'] = [];
    const wanted = new Set(this.deps.phases ?? WARM_UP_PHASES);
    const signal = this.controller.signal;
    try {
      let set: CarrierSet | null = null;
      for (const phase of WARM_UP_PHASES) {
        if (signal.aborted) break;
        if (!wanted.has(phase)) continue;
        const t0 = performance.now();
        set ??= await this.deps.carrierSet();
        let worked = true;
        if (phase === 'code') await preloadCarrierClient();
        else if (phase === 'directories') worked = await this.prepareAll(set, signal);
        else worked = await this.throwawayQuote(set, signal);
        if (signal.aborted) break;
        if (worked) phases.push({ phase, ms: Math.round(performance.now() - t0) });
      }
    } catch (err) {
      // The warm-up only saves time: whatever fails here fails again, and is reported, in a real quote.
      if (!signal.aborted) this.deps.logger.warn('warm-up failed', { error: String(err) });
    }
    const report: WarmUpReport = {
      mode,
      phases,
      stopped: this.stoppedBy,
      totalMs: Math.round(performance.now() - started),
    };
    this.deps.logger.info('warm-up done', {
      mode,
      ms: report.totalMs,
      phases: phases.map((p) => `${p.phase} ${p.ms} ms`).join(', '),
      ...(report.stopped ? { stopped: report.stopped } : {}),
    });
    return report;
  }

  /** Whether any adapter had something to prepare. */
  private async prepareAll(set: CarrierSet, signal: AbortSignal): Promise<boolean> {
    const preparing = [...set.adapters.values()].flatMap((adapter: CarrierAdapter) =>
      adapter.prepare
        ? [adapter.prepare({ signal, live: !this.deps.simulated(adapter.code) }).catch(() => undefined)]
        : [],
    );
    await Promise.all(preparing);
    return preparing.length > 0;
  }

  /** Whether there was a simulated carrier to quote. */
  private async throwawayQuote(set: CarrierSet, signal: AbortSignal): Promise<boolean> {
    // Only simulated carriers: a real carrier is never asked for a price it was not asked for.
    const carriers = [...set.adapters.keys()].filter((code) => this.deps.simulated(code));
    if (carriers.length === 0) return false;
    const { from, to } = await this.deps.route();
    const shipment: Shipment = {
      from: { country: 'RU', ...from },
      to: { country: 'RU', ...to },
      parcel: { ...WARM_UP_PARCEL },
      declared_value_kopecks: 0,
      carriers,
    };
    await quoteAll(shipment, set, new HealthBoard(), {
      deadlineMs: this.deps.deadlineMs(),
      carrierTimeoutMs: this.deps.carrierTimeoutMs(),
      signal,
    });
    return true;
  }
}
