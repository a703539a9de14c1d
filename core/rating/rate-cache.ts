// Rates a carrier gave for a shipment, reused for the same shipment within rating.cache_ttl_ms
// (docs/carriers.md, "Circuit breaker, back-off and cache"). Shared by desk quotes and /v1: a /v1 200 served
// from here is still charged (docs/api.md), it only spares the carrier a call. Only rates are stored: a
// failure or a "no service" is asked again next time.
import type { CarrierAdapter } from '../carriers/types';
import type { Rate } from '../contract/v1';

/** About 2 KB per entry with a handful of tariffs: a few MB at most. */
export const RATE_CACHE_MAX_ENTRIES = 2048;

interface Entry {
  rates: readonly Rate[];
  storedAtMs: number;
}

export class RateCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * Each adapter object gets a number of its own. The registry builds new adapters whenever a carrier's
   * settings change (host, credentials, products, sandbox), so a new number is a new configuration and the
   * answers of the old one are never found again; they age out of the size bound.
   */
  private readonly generations = new WeakMap<CarrierAdapter, number>();
  private nextGeneration = 1;

  /** `now`: monotonic milliseconds (the service's clock), so tests move past the TTL instead of sleeping. */
  constructor(
    private readonly now: () => number,
    private readonly maxEntries = RATE_CACHE_MAX_ENTRIES,
  ) {}

  /**
   * `scope` keeps answers of different worlds apart even if an adapter were reused across them (sandbox and
   * live); `shipmentKey` is the shipment's canonical fingerprint without its carrier list.
   */
  key(adapter: CarrierAdapter, scope: string, shipmentKey: string): string {
    let generation = this.generations.get(adapter);
    if (generation === undefined) {
      generation = this.nextGeneration++;
      this.generations.set(adapter, generation);
    }
    return `${scope}\u0000${adapter.code}\u0000${generation}\u0000${shipmentKey}`;
  }

  get(key: string, ttlMs: number): Rate[] | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    // The TTL is read per lookup, so shortening the setting takes effect on entries already stored.
    if (this.now() - e.storedAtMs >= ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Least recently used goes first: a hit moves the entry to the end of the insertion order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return [...e.rates];
  }

  set(key: string, rates: readonly Rate[]): void {
    if (rates.length === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { rates: [...rates], storedAtMs: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
