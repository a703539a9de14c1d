// The rate cache on its own: TTL on a moved clock, the size bound, keys that separate carriers, adapter
// generations (a settings change) and sandbox from live.
import { describe, expect, it } from 'vitest';
import type { CarrierAdapter } from '../../../../core/carriers/types';
import type { Rate } from '../../../../core/contract/v1';
import { RateCache } from '../../../../core/rating/rate-cache';

const adapter = (code: string): CarrierAdapter => ({
  code,
  name: code,
  quote: () => Promise.reject(new Error('not called')),
});

const rate = (carrier: string, price: number): Rate => ({
  carrier,
  carrier_name: carrier,
  service_code: `${carrier}:1`,
  service_name: 'Посылка',
  delivery_type: 'door',
  price_kopecks: price,
  currency: 'RUB',
  days_min: 1,
  days_max: 2,
  price_type: 'public',
});

function cache(max?: number): { c: RateCache; advance(ms: number): void } {
  let now = 0;
  return { c: new RateCache(() => now, max), advance: (ms) => (now += ms) };
}

describe('rate cache', () => {
  it('answers within the TTL and forgets at the TTL', () => {
    const { c, advance } = cache();
    const key = c.key(adapter('cdek'), 'live', 'shipment-1');
    c.set(key, [rate('cdek', 100)]);
    advance(299_999);
    expect(c.get(key, 300_000)).toEqual([rate('cdek', 100)]);
    advance(1);
    expect(c.get(key, 300_000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('reads the TTL per lookup: a shorter setting applies to entries already stored', () => {
    const { c, advance } = cache();
    const key = c.key(adapter('cdek'), 'live', 's');
    c.set(key, [rate('cdek', 100)]);
    advance(60_000);
    expect(c.get(key, 30_000)).toBeUndefined();
  });

  it('never stores an empty answer', () => {
    const { c } = cache();
    const key = c.key(adapter('cdek'), 'live', 's');
    c.set(key, []);
    expect(c.get(key, 300_000)).toBeUndefined();
  });

  it('keys carriers, adapter generations and sandbox/live apart', () => {
    const { c } = cache();
    const cdek = adapter('cdek');
    const rebuilt = adapter('cdek');
    const keys = [
      c.key(cdek, 'live', 's'),
      c.key(adapter('russian-post'), 'live', 's'),
      c.key(rebuilt, 'live', 's'),
      c.key(cdek, 'sandbox', 's'),
      c.key(cdek, 'live', 's2'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(c.key(cdek, 'live', 's')).toBe(keys[0]);
    c.set(keys[0]!, [rate('cdek', 1)]);
    for (const other of keys.slice(1)) expect(c.get(other, 300_000)).toBeUndefined();
  });

  it('hands out copies: a caller sorting its rates cannot reorder what is stored', () => {
    const { c } = cache();
    const key = c.key(adapter('cdek'), 'live', 's');
    c.set(key, [rate('cdek', 300), rate('cdek', 100)]);
    c.get(key, 300_000)!.sort((a, b) => a.price_kopecks - b.price_kopecks);
    expect(c.get(key, 300_000)!.map((r) => r.price_kopecks)).toEqual([300, 100]);
  });

  it('is bounded: the least recently used entry goes first', () => {
    const { c } = cache(3);
    const a = adapter('cdek');
    const keys = ['s1', 's2', 's3', 's4'].map((s) => c.key(a, 'live', s));
    for (const k of keys.slice(0, 3)) c.set(k, [rate('cdek', 1)]);
    expect(c.get(keys[0]!, 300_000)).toBeDefined(); // s1 used: s2 is now the oldest
    c.set(keys[3]!, [rate('cdek', 1)]);
    expect(c.size).toBe(3);
    expect(c.get(keys[1]!, 300_000)).toBeUndefined();
    for (const k of [keys[0]!, keys[2]!, keys[3]!]) expect(c.get(k, 300_000)).toBeDefined();
  });

  it('is bounded by the text it holds too: big answers push the oldest out, one too big is not kept', () => {
    const a = adapter('cdek');
    const many = Array.from({ length: 20 }, (_, i) => rate('cdek', i));
    const size = JSON.stringify(many).length + a.code.length + 40;
    const c = new RateCache(() => 0, 100, size * 2);
    const keys = ['s1', 's2', 's3'].map((s) => c.key(a, 'live', s));
    for (const k of keys) c.set(k, many);
    expect(c.size).toBe(2);
    expect(c.heldChars).toBeLessThanOrEqual(size * 2);
    expect(c.get(keys[0]!, 1)).toBeUndefined();
    expect(c.get(keys[2]!, 1)).toEqual(many);
    const huge = Array.from({ length: 100 }, (_, i) => rate('cdek', i));
    c.set(c.key(a, 'live', 'huge'), huge);
    expect(c.get(c.key(a, 'live', 'huge'), 1)).toBeUndefined();
    expect(c.size).toBe(2);
  });
});
