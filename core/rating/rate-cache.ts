// Rates a carrier gave for a shipment, reused for the same shipment within rating.cache_ttl_ms
// (docs/carriers.md, "Circuit breaker, back-off and cache"). Shared by desk quotes and /v1: a /v1 200 served
// from here is still charged (docs/api.md), it only spares the carrier a call. Only rates are stored: a
// failure or a "no service" is asked again next time.
import type { CarrierAdapter } from '../carriers/types';
import type { Rate } from '../contract/v1';

export const RATE_CACHE_MAX_ENTRIES = 2048;
/**
 * Entries are kept as JSON text, bounded by its total length too: as live objects a dozen CDEK tariffs took
 * ~12 KB an entry, and 2,048 different shipments (the malformed-input suite) grew the service by ~25 MB. As
 * text an entry is 2–4 K characters and the whole cache stays under this many UTF-16 code units (≤ 4 MB).
 */
export const RATE_CACHE_MAX_CHARS = 2 * 1024 * 1024;

interface Entry {
  /** The rates as JSON: compact, and every hit parses its own copy, so no caller can alter what is stored. */
  json: string;
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
  private chars = 0;
  /** Lookups that found a fresh answer, and those that did not (the benchmark reports the hit rate). */
  private readonly counts = { hits: 0, misses: 0 };

  /** `now`: monotonic milliseconds (the service's clock), so tests move past the TTL instead of sleeping. */
  constructor(
    private readonly now: () => number,
    private readonly maxEntries = RATE_CACHE_MAX_ENTRIES,
    private readonly maxChars = RATE_CACHE_MAX_CHARS,
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
    if (e === undefined) {
      this.counts.misses += 1;
      return undefined;
    }
    // The TTL is read per lookup, so shortening the setting takes effect on entries already stored.
    if (this.now() - e.storedAtMs >= ttlMs) {
      this.remove(key);
      this.counts.misses += 1;
      return undefined;
    }
    this.counts.hits += 1;
    // Least recently used goes first: a hit moves the entry to the end of the insertion order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return JSON.parse(e.json) as Rate[];
  }

  set(key: string, rates: readonly Rate[]): void {
    if (rates.length === 0) return;
    this.remove(key);
    const json = JSON.stringify(rates);
    if (key.length + json.length > this.maxChars) return;
    this.entries.set(key, { json, storedAtMs: this.now() });
    this.chars += key.length + json.length;
    while (this.entries.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.chars -= key.length + e.json.length;
  }

  /** UTF-16 code units held (keys and JSON), for the size bound and its test. */
  get heldChars(): number {
    return this.chars;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Hits and misses since the service started. */
  stats(): { hits: number; misses: number } {
    return { ...this.counts };
  }
}
