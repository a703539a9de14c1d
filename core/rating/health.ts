// Carrier status for GET /v1/carriers and the desk. Rule (docs/api.md): `unknown` until the carrier has
// answered once; `available` after any answer (a rate or a clean "no service"); `unavailable` after
// FAILURES_TO_UNAVAILABLE consecutive failures (timeout, carrier error) and whenever the carrier's circuit
// breaker opens (breaker.ts); the next answer makes it available.
import type { CarrierStatus } from '../contract/v1';

export const FAILURES_TO_UNAVAILABLE = 3;
const LATENCY_WINDOW = 50;

export interface CarrierHealth {
  code: string;
  status: CarrierStatus;
  consecutiveFailures: number;
  lastError: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  medianLatencyMs: number | null;
}

export class HealthBoard {
  private readonly entries = new Map<string, CarrierHealth & { latencies: number[] }>();

  constructor(private readonly onChange: (h: CarrierHealth) => void = () => {}) {}

  /** Restores what an earlier run persisted, so a restart does not forget a dead carrier. */
  seed(h: CarrierHealth): void {
    this.entries.set(h.code, { ...h, latencies: h.medianLatencyMs === null ? [] : [h.medianLatencyMs] });
  }

  get(code: string): CarrierHealth {
    const e = this.entries.get(code);
    if (!e) return blank(code);
    const { latencies: _latencies, ...rest } = e;
    return rest;
  }

  recordAnswer(code: string, latencyMs: number, at: Date): void {
    const e = this.entry(code);
    const changed = e.status !== 'available' || e.consecutiveFailures !== 0;
    e.status = 'available';
    e.consecutiveFailures = 0;
    e.lastSuccessAt = at.toISOString();
    e.latencies.push(latencyMs);
    if (e.latencies.length > LATENCY_WINDOW) e.latencies.shift();
    e.medianLatencyMs = median(e.latencies);
    if (changed) this.onChange(this.get(code));
  }

  recordFailure(code: string, error: string, at: Date): void {
    const e = this.entry(code);
    e.consecutiveFailures += 1;
    e.lastError = error;
    e.lastFailureAt = at.toISOString();
    if (e.consecutiveFailures >= FAILURES_TO_UNAVAILABLE) e.status = 'unavailable';
    this.onChange(this.get(code));
  }

  /**
   * The carrier's breaker opened (after failures, or on the carrier's own Retry-After): it is not called
   * until the cool-down ends, so it must not read `available` meanwhile.
   */
  markUnavailable(code: string): void {
    const e = this.entry(code);
    if (e.status === 'unavailable') return;
    e.status = 'unavailable';
    this.onChange(this.get(code));
  }

  private entry(code: string): CarrierHealth & { latencies: number[] } {
    let e = this.entries.get(code);
    if (!e) {
      e = { ...blank(code), latencies: [] };
      this.entries.set(code, e);
    }
    return e;
  }
}

function blank(code: string): CarrierHealth {
  return {
    code,
    status: 'unknown',
    consecutiveFailures: 0,
    lastError: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    medianLatencyMs: null,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return Math.round(s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2);
}
