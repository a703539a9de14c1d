// #10 item 7 through the whole service: identical shipments within the TTL are answered from the rate
// cache per carrier, with no carrier call; failures are never cached; a /v1 200 from the cache is still a
// rates call and is charged exactly once; each asker has its own answers unless rating.cache_sharing is shared. Carrier calls are counted by
// the fault proxy in front of the sandbox simulators; the monotonic clock is moved past the TTL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toV1Rate } from '../../../core/contract/quote-ext';
import type { Rate } from '../../../core/contract/v1';
import type { SqliteStore } from '../../../core/store';
import type { Clock } from '../../../core/util/clock';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy';
import {
  FIRST_TWO_CARRIERS,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';

const TTL_MS = 300_000;
/** The two carriers these counts are about (FIRST_TWO_CARRIERS switches the others off). */
const CARRIERS = ['cdek', 'russian-post'];

function steppingClock(): Clock & { advance(ms: number): void } {
  let mono = performance.now();
  return { now: () => new Date(), monotonicMs: () => mono, advance: (ms) => void (mono += ms) };
}

let t: TestService;
let proxy: FaultProxy;
const clock = steppingClock();

beforeAll(async () => {
  proxy = await startFaultProxy(CARRIERS);
  t = await startTestService({ settings: FIRST_TWO_CARRIERS, sandboxFront: proxy.front, clock });
  // CDEK's token is fetched once here, so that later counts are quote calls only.
  expect(
    (await t.postRates({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 2_400 } })).status,
  ).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await proxy?.close();
});

/** Upstream calls per carrier since the last reset. */
let base: Record<string, number> = {};
beforeEach(() => {
  base = Object.fromEntries(Object.entries(proxy.stats()).map(([c, s]) => [c, s.calls]));
});
const calls = (): Record<string, number> =>
  Object.fromEntries(Object.entries(proxy.stats()).map(([c, s]) => [c, s.calls - (base[c] ?? 0)]));
const since = (): Record<string, number> => {
  const c = calls();
  base = Object.fromEntries(Object.entries(proxy.stats()).map(([k, s]) => [k, s.calls]));
  return c;
};

let weight = 5_001;
/** A shipment no earlier test asked for. */
const shipment = () => ({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: weight++ } });
/** Russian Post asks once per product, CDEK once per quote (its token is cached). */
const ONE_QUOTE = { cdek: 1, 'russian-post': 5 };
const NO_CALLS = { cdek: 0, 'russian-post': 0 };

function ledgerRows(requestId: string): number {
  return (
    (t.service.store as SqliteStore).db
      .prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'rates' AND request_id = ?")
      .get(requestId) as { n: number }
  ).n;
}

describe('rate cache over /v1 and the desk', () => {
  it('the same shipment again: no carrier call, the same rates, and still charged exactly once', async () => {
    const s = shipment();
    const balance = (await t.get('/v1/balance')).json.balance as number;
    const first = await t.postRates(s);
    expect(since()).toEqual(ONE_QUOTE);
    // Written differently, the same shipment (the idempotency fingerprint's canonical form).
    const second = await t.postRates(
      JSON.stringify({
        parcel: s.parcel,
        to: { postal_code: s.to.postal_code, city: s.to.city },
        from: s.from,
      }),
    );
    expect(since()).toEqual(NO_CALLS);
    for (const r of [first, second]) expect(r.status).toBe(200);
    expect(second.json.rates).toEqual(first.json.rates);
    expect(second.json.request_id).not.toBe(first.json.request_id);
    expect(second.json.balance_remaining).toBe(balance - 2);
    expect(ledgerRows(first.json.request_id)).toBe(1);
    expect(ledgerRows(second.json.request_id)).toBe(1);
    expect((await t.get('/v1/balance')).json.balance).toBe(balance - 2);
  });

  it('per carrier: a quote for one carrier reuses that carrier’s answer; a new carrier list is no new shipment', async () => {
    const s = shipment();
    await t.postRates({ ...s, carriers: ['russian-post'] });
    expect(since()).toEqual({ cdek: 0, 'russian-post': 5 });
    const both = await t.postRates(s);
    expect(since()).toEqual({ cdek: 1, 'russian-post': 0 });
    expect(both.json.unavailable).toEqual([]);
  });

  it('expires after the TTL (rating.cache_ttl_ms, 5 minutes by default)', async () => {
    const s = shipment();
    await t.postRates(s);
    since();
    clock.advance(TTL_MS - 1);
    await t.postRates(s);
    expect(since()).toEqual(NO_CALLS);
    clock.advance(1);
    await t.postRates(s);
    expect(since()).toEqual(ONE_QUOTE);
  });

  it('failures are never cached: the failed carrier is asked again, the one that answered is not', async () => {
    const s = shipment();
    proxy.plan(s.parcel.weight_grams, 'cdek', { kind: 'http_status', status: 500, body: 'json' });
    proxy.plan(s.parcel.weight_grams, 'russian-post', { kind: 'none' });
    const failed = await t.postRates(s);
    expect(failed.json.unavailable).toEqual([{ carrier: 'cdek', reason: expect.stringMatching(/500/) }]);
    since();
    proxy.forget(s.parcel.weight_grams);
    const again = await t.postRates(s);
    expect(since()).toEqual({ cdek: 1, 'russian-post': 0 });
    expect(again.json.unavailable).toEqual([]);
  });

  it('a 503 is never cached either (nothing was charged, and the retry asks the carriers)', async () => {
    const s = shipment();
    for (const c of CARRIERS)
      proxy.plan(s.parcel.weight_grams, c, { kind: 'http_status', status: 502, body: 'html' });
    const balance = (await t.get('/v1/balance')).json.balance as number;
    expect((await t.postRates(s)).status).toBe(503);
    proxy.forget(s.parcel.weight_grams);
    since();
    const retry: HttpResult = await t.postRates(s);
    expect(retry.status).toBe(200);
    expect(since()).toEqual(ONE_QUOTE);
    expect((await t.get('/v1/balance')).json.balance).toBe(balance - 1);
  });

  // #16 changed this on purpose: by default each asker's answers are its own (a hit is fast, so a shared cache
  // tells one account what another asked). rating.cache_sharing = shared brings back one cache for all.
  it('each asker’s answers are its own: the desk, one account and another each ask the carriers', async () => {
    const s = shipment();
    const desk = await t.service.desk.dispatch('quote:run', { quoteKey: 'own-1', shipment: s });
    expect(desk.ok).toBe(true);
    expect(since()).toEqual(ONE_QUOTE);
    await t.postRates(s);
    expect(since()).toEqual(ONE_QUOTE);
    await t.postRates(s);
    expect(since()).toEqual(NO_CALLS);
    await t.service.store.accounts.create('other', 100, new Date().toISOString());
    await t.postRates(s, {}, await t.newKey('other'));
    expect(since()).toEqual(ONE_QUOTE);
  });

  it('with rating.cache_sharing = shared, desk quotes and /v1 share it, both ways', async () => {
    await t.service.store.settings.write(
      [{ name: 'rating.cache_sharing', value: 'shared' }],
      new Date().toISOString(),
    );
    try {
      await sharedBothWays();
    } finally {
      await t.service.store.settings.write(
        [{ name: 'rating.cache_sharing', value: null }],
        new Date().toISOString(),
      );
    }
  });

  async function sharedBothWays(): Promise<void> {
    const s = shipment();
    const desk = await t.service.desk.dispatch('quote:run', { quoteKey: 'cache-1', shipment: s });
    expect(desk.ok).toBe(true);
    expect(since()).toEqual(ONE_QUOTE);
    const api = await t.postRates(s);
    expect(since()).toEqual(NO_CALLS);
    // The desk's rates carry the clerk's fields (#21); /v1 sends the spec's fields of the same rates.
    expect(api.json.rates).toEqual(desk.ok && (desk.value as { rates: Rate[] }).rates.map(toV1Rate));
    const s2 = shipment();
    await t.postRates(s2);
    since();
    await t.service.desk.dispatch('quote:run', { quoteKey: 'cache-2', shipment: s2 });
    expect(since()).toEqual(NO_CALLS);
  }

  it('a carrier settings change is a new configuration: its old answers are not reused', async () => {
    const s = shipment();
    await t.postRates(s);
    since();
    await t.service.store.settings.write(
      [{ name: 'carriers.russian-post.objects', value: '27030,47030' }],
      new Date().toISOString(),
    );
    await t.postRates(s);
    expect(since()['russian-post']).toBe(2);
    await t.service.store.settings.write(
      [{ name: 'carriers.russian-post.objects', value: '27030,47030,23030,24030,7030' }],
      new Date().toISOString(),
    );
  });

  it('rating.cache_ttl_ms = 0 turns it off', async () => {
    const s = shipment();
    await t.service.store.settings.write(
      [{ name: 'rating.cache_ttl_ms', value: '0' }],
      new Date().toISOString(),
    );
    try {
      await t.postRates(s);
      since();
      await t.postRates(s);
      expect(since()).toEqual(ONE_QUOTE);
    } finally {
      await t.service.store.settings.write(
        [{ name: 'rating.cache_ttl_ms', value: String(TTL_MS) }],
        new Date().toISOString(),
      );
    }
  });
});
