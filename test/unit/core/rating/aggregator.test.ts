// quoteAll with the breaker and the cache in place, on in-process adapters and a clock the test moves: what a
// quote reports, which carriers are really called, and what health and the breaker learn from each outcome.
import { describe, expect, it } from 'vitest';
import type { CarrierAdapter, CarrierOutcome } from '../../../../core/carriers/types';
import type { Rate, Shipment } from '../../../../core/contract/v1';
import { quoteAll, type QuoteOptions, type QuoteProgress } from '../../../../core/rating/aggregator';
import { CircuitBreakers } from '../../../../core/rating/breaker';
import { HealthBoard } from '../../../../core/rating/health';
import { RateCache } from '../../../../core/rating/rate-cache';

const COOLDOWN = 30_000;
const TTL = 300_000;

const SHIPMENT: Shipment = {
  from: { city: 'Москва', postal_code: '101000', country: 'RU' },
  to: { city: 'Казань', postal_code: '420000', country: 'RU' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declared_value_kopecks: 0,
} as Shipment;

const rate = (carrier: string, price = 10_000): Rate => ({
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

type Behaviour = 'ok' | 'error' | 'no_service' | 'postal_code_required' | 'hang';

/** An adapter whose next answers the test scripts; it counts the calls that reached it. */
function scripted(
  code: string,
  initial: Behaviour = 'ok',
): CarrierAdapter & {
  calls: number;
  behaviour: Behaviour;
} {
  const a = {
    code,
    name: code,
    calls: 0,
    behaviour: initial,
    quote(_req: unknown, { signal }: { signal: AbortSignal }): Promise<CarrierOutcome> {
      a.calls += 1;
      switch (a.behaviour) {
        case 'ok':
          return Promise.resolve({ ok: true, rates: [rate(code)] });
        case 'error':
          return Promise.resolve({ ok: false, kind: 'carrier_error', detail: 'HTTP 500' });
        case 'no_service':
          return Promise.resolve({ ok: false, kind: 'no_service' });
        case 'postal_code_required':
          return Promise.resolve({ ok: false, kind: 'postal_code_required' });
        case 'hang':
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      }
    },
  };
  return a;
}

function rig(...adapters: CarrierAdapter[]) {
  let now = 1_000;
  const clock = () => now;
  const health = new HealthBoard();
  const board = new CircuitBreakers(clock);
  const store = new RateCache(clock);
  const set = { adapters: new Map(adapters.map((a) => [a.code, a])), disabled: new Set<string>() };
  const options = (extra: Partial<QuoteOptions> = {}): QuoteOptions => ({
    deadlineMs: 2_000,
    carrierTimeoutMs: 50,
    breakers: { board, cooldownMs: COOLDOWN },
    cache: { store, ttlMs: TTL, scope: 'sandbox' },
    ...extra,
  });
  return {
    health,
    board,
    store,
    advance: (ms: number) => (now += ms),
    quote: (shipment: Partial<Shipment> = {}, extra: Partial<QuoteOptions> = {}) =>
      quoteAll({ ...SHIPMENT, ...shipment }, set, health, options(extra)),
  };
}

/** A shipment nobody asked for yet, so the cache cannot answer it. */
let weight = 2_000;
const fresh = (): Partial<Shipment> => ({ parcel: { ...SHIPMENT.parcel, weight_grams: weight++ } });

describe('quoteAll: circuit breaker', () => {
  it('after 3 failures the carrier is skipped at once, listed as temporarily skipped, and its status is unavailable', async () => {
    const cdek = scripted('cdek', 'error');
    const rp = scripted('russian-post');
    const r = rig(cdek, rp);
    for (let i = 0; i < 3; i++) {
      const res = await r.quote(fresh());
      expect(res.unavailable).toEqual([{ carrier: 'cdek', reason: 'carrier error: HTTP 500' }]);
    }
    expect(r.health.get('cdek').status).toBe('unavailable');
    cdek.behaviour = 'ok';
    const progress: QuoteProgress[] = [];
    const skipped = await r.quote(fresh(), { onProgress: (p) => progress.push(p) });
    expect(cdek.calls).toBe(3);
    expect(skipped.unavailable).toEqual([
      { carrier: 'cdek', reason: 'temporarily skipped after repeated failures' },
    ]);
    // Until when (#17: the desk says it); the /v1 reason above stays as it was.
    expect(skipped.failures).toEqual([{ carrier: 'cdek', kind: 'temporarily_skipped', retryInMs: COOLDOWN }]);
    expect(skipped.rates.map((x) => x.carrier)).toEqual(['russian-post']);
    expect(progress).toContainEqual(
      expect.objectContaining({ carrier: 'cdek', state: 'unavailable', kind: 'temporarily_skipped' }),
    );
    expect(r.health.get('cdek').status).toBe('unavailable');
  });

  it('half-open: one probe after the cool-down; its success closes the breaker and the status', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek, scripted('russian-post'));
    for (let i = 0; i < 3; i++) await r.quote(fresh());
    r.advance(COOLDOWN);
    cdek.behaviour = 'ok';
    const probe = await r.quote(fresh());
    expect(cdek.calls).toBe(4);
    expect(probe.rates.map((x) => x.carrier).sort()).toEqual(['cdek', 'russian-post']);
    expect(r.board.view('cdek').state).toBe('closed');
    expect(r.health.get('cdek').status).toBe('available');
  });

  it('half-open: a failed probe re-opens the breaker; concurrent quotes during the probe skip the carrier', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek, scripted('russian-post'));
    for (let i = 0; i < 3; i++) await r.quote(fresh());
    r.advance(COOLDOWN);
    cdek.behaviour = 'hang';
    const quotes = await Promise.all([r.quote(fresh()), r.quote(fresh()), r.quote(fresh())]);
    expect(cdek.calls).toBe(4);
    const reasons = quotes.map((q) => q.unavailable.find((u) => u.carrier === 'cdek')?.reason).sort();
    expect(reasons).toEqual([
      'temporarily skipped after repeated failures',
      'temporarily skipped after repeated failures',
      'timeout',
    ]);
    expect(r.board.view('cdek').state).toBe('open');
    cdek.behaviour = 'ok';
    expect((await r.quote(fresh())).unavailable[0]?.reason).toBe(
      'temporarily skipped after repeated failures',
    );
    expect(cdek.calls).toBe(4);
  });

  it('a client that goes away is no failure: three cancelled calls leave the breaker closed', async () => {
    const cdek = scripted('cdek', 'hang');
    const r = rig(cdek);
    for (let i = 0; i < 4; i++) {
      const gone = new AbortController();
      const pending = r.quote(fresh(), { signal: gone.signal });
      gone.abort(new Error('client disconnected'));
      expect((await pending).cancelled).toBe(true);
    }
    expect(r.board.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(r.health.get('cdek').consecutiveFailures).toBe(0);
    expect(cdek.calls).toBe(4);
  });

  it('a quote whose asker already left asks no carrier, and nothing rejects unheard (it once ended the process)', async () => {
    // As real adapters do: an async quote that throws at once on an aborted signal.
    let calls = 0;
    const eager: CarrierAdapter = {
      code: 'cdek',
      name: 'cdek',
      async quote(_req, { signal }) {
        calls += 1;
        signal.throwIfAborted();
        return { ok: true, rates: [rate('cdek')] };
      },
    };
    const unheard: unknown[] = [];
    const listen = (reason: unknown): void => void unheard.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const r = rig(eager);
      const gone = new AbortController();
      gone.abort(new DOMException('warm-up stopped: quote', 'AbortError'));
      const res = await r.quote(fresh(), { signal: gone.signal });
      expect(res.cancelled).toBe(true);
      expect(calls).toBe(0);
      // Unhandled rejections are reported after the microtask queue drains: give them two turns of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unheard).toEqual([]);
      expect(r.board.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    } finally {
      process.off('unhandledRejection', listen);
    }
  });

  it('"no service" is an answer (resets the count); a local verdict is neither failure nor answer', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek);
    await r.quote(fresh());
    await r.quote(fresh());
    cdek.behaviour = 'no_service';
    await r.quote(fresh());
    expect(r.board.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    cdek.behaviour = 'error';
    await r.quote(fresh());
    await r.quote(fresh());
    // "postal code required" may be decided without asking the carrier: it does not count either way.
    cdek.behaviour = 'postal_code_required';
    for (let i = 0; i < 3; i++) await r.quote(fresh());
    expect(r.board.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 2 });
    // Over the carrier's published limits: decided before any call, never a failure either.
    const limited = { ...scripted('cdek', 'error'), limits: { maxWeightGrams: 1_000 } };
    const r2 = rig(limited);
    for (let i = 0; i < 5; i++) {
      const res = await r2.quote(fresh());
      expect(res.failures[0]?.kind).toBe('exceeds_limits');
    }
    expect(r2.board.view('cdek')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('#21: limits hold for every place and for the shipment; a second place over them is caught before any call', async () => {
    const limited = Object.assign(scripted('cdek', 'ok'), {
      limits: { maxWeightGrams: 10_000, maxShipmentWeightGrams: 15_000 },
    });
    const r = rig(limited);
    const box = { ...SHIPMENT.parcel!, weight_grams: 1_000 };
    const quote = (places: (typeof box)[]) =>
      quoteAll(
        { ...SHIPMENT, parcel: undefined, places: places.map((p) => ({ ...p, count: 1 })), cod_kopecks: 0 },
        {
          adapters: new Map([['cdek', limited]]),
          disabled: new Set<string>(),
        },
        r.health,
        { deadlineMs: 2_000, carrierTimeoutMs: 50 },
      );
    const second = await quote([box, { ...box, weight_grams: 12_000 }]);
    expect(second.unavailable).toEqual([
      { carrier: 'cdek', reason: 'parcel exceeds carrier limits: place 2: weight 12 kg over 10 kg' },
    ]);
    const total = await quote([
      { ...box, weight_grams: 8_000 },
      { ...box, weight_grams: 8_000 },
    ]);
    expect(total.failures).toEqual([
      { carrier: 'cdek', kind: 'exceeds_limits', detail: 'total weight 16 kg over 15 kg' },
    ]);
    expect(limited.calls).toBe(0);
    expect((await quote([box, box])).rates).toHaveLength(1);
    expect(limited.calls).toBe(1);
  });

  it("#21: an adapter's breakdown, options not priced and insured value reach the result, also from the cache", async () => {
    const extras = {
      breakdown: { base_kopecks: 9_000, insurance_kopecks: 1_000, cod_fee_kopecks: null },
      options_not_priced: [{ option: 'cod' as const, reason: 'not_quoted' as const, detail: 'no COD fee' }],
      insured_value_kopecks: 50_000,
    };
    const cdek = Object.assign(scripted('cdek'), {
      quote: () => Promise.resolve({ ok: true as const, rates: [{ ...rate('cdek'), ...extras }] }),
    });
    const r = rig(cdek);
    const first = await r.quote();
    expect(first.rates[0]).toMatchObject(extras);
    const cached = await r.quote();
    expect(cached.fromCache).toContain('cdek');
    expect(cached.rates[0]).toMatchObject(extras);
  });

  it('a breaker opened while health still read available (a local verdict in between) still shows unavailable', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek);
    await r.quote(fresh());
    await r.quote(fresh());
    cdek.behaviour = 'postal_code_required';
    await r.quote(fresh()); // health: an answer (count 0); breaker: nothing (count 2)
    cdek.behaviour = 'error';
    await r.quote(fresh());
    expect(r.board.view('cdek').state).toBe('open');
    expect(r.health.get('cdek').status).toBe('unavailable');
  });

  it('«спросить сейчас»: probeNow asks a skipped carrier once, before its cool-down ends', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek, scripted('russian-post'));
    for (let i = 0; i < 3; i++) await r.quote(fresh(), { account: 'desk' });
    r.advance(10_000);
    const progress: QuoteProgress[] = [];
    const skipped = await r.quote(fresh(), { account: 'desk', onProgress: (p) => progress.push(p) });
    expect(skipped.failures).toEqual([{ carrier: 'cdek', kind: 'temporarily_skipped', retryInMs: 20_000 }]);
    expect(progress).toContainEqual(
      expect.objectContaining({ carrier: 'cdek', kind: 'temporarily_skipped', retryInMs: 20_000 }),
    );
    cdek.behaviour = 'ok';
    const asked = await r.quote(fresh(), { account: 'desk', probeNow: ['cdek'] });
    expect(cdek.calls).toBe(4);
    expect(asked.failures).toEqual([]);
    expect(r.board.view('cdek', 'desk').state).toBe('closed');
  });

  it('without breakers (in-process adapters) every carrier is called every time', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek);
    for (let i = 0; i < 5; i++) {
      const res = await r.quote(fresh(), { breakers: undefined });
      expect(res.failures[0]?.kind).toBe('carrier_error');
    }
    expect(cdek.calls).toBe(5);
  });
});

describe('quoteAll: rate cache', () => {
  it('the same shipment within the TTL is answered from the cache, per carrier, with no call', async () => {
    const cdek = scripted('cdek');
    const rp = scripted('russian-post');
    const r = rig(cdek, rp);
    const first = await r.quote();
    expect(first.fromCache).toEqual([]);
    const progress: QuoteProgress[] = [];
    const second = await r.quote({}, { onProgress: (p) => progress.push(p) });
    expect([cdek.calls, rp.calls]).toEqual([1, 1]);
    expect(second.rates).toEqual(first.rates);
    expect(second.fromCache.sort()).toEqual(['cdek', 'russian-post']);
    expect(
      progress
        .filter((p) => p.state === 'answered')
        .map((p) => p.carrier)
        .sort(),
    ).toEqual(['cdek', 'russian-post']);
    // Per carrier: asking for one carrier reuses its entry, whatever else the first quote asked for.
    const onlyCdek = await r.quote({ carriers: ['CDEK'] });
    expect(onlyCdek.fromCache).toEqual(['cdek']);
    expect(cdek.calls).toBe(1);
  });

  it('a different shipment is a different entry', async () => {
    const cdek = scripted('cdek');
    const r = rig(cdek);
    await r.quote();
    await r.quote({ declared_value_kopecks: 100 });
    await r.quote({ to: { ...SHIPMENT.to, postal_code: '420001' } });
    expect(cdek.calls).toBe(3);
  });

  it('expires after the TTL: the carrier is called again', async () => {
    const cdek = scripted('cdek');
    const r = rig(cdek);
    await r.quote();
    r.advance(TTL - 1);
    await r.quote();
    expect(cdek.calls).toBe(1);
    r.advance(1);
    await r.quote();
    expect(cdek.calls).toBe(2);
  });

  it('failures and "no service" are never cached', async () => {
    const cdek = scripted('cdek', 'error');
    const r = rig(cdek);
    await r.quote();
    await r.quote();
    expect(cdek.calls).toBe(2);
    cdek.behaviour = 'no_service';
    await r.quote();
    await r.quote();
    expect(cdek.calls).toBe(4);
    cdek.behaviour = 'ok';
    const ok = await r.quote();
    expect(ok.fromCache).toEqual([]);
    expect((await r.quote()).fromCache).toEqual(['cdek']);
    expect(cdek.calls).toBe(5);
  });

  it('a cached answer neither touches health nor counts as an answer for the breaker', async () => {
    const cdek = scripted('cdek');
    const r = rig(cdek);
    await r.quote();
    cdek.behaviour = 'error';
    await r.quote(fresh());
    await r.quote(fresh());
    await r.quote(); // cached: not an answer of the carrier
    await r.quote(fresh());
    expect(r.board.view('cdek').state).toBe('open');
    // While open, a shipment still in the cache is served from it.
    const cached = await r.quote();
    expect(cached.fromCache).toEqual(['cdek']);
    expect(cached.unavailable).toEqual([]);
  });

  it('a new adapter object (settings changed) and the other mode (sandbox/live) never see old answers', async () => {
    const cdek = scripted('cdek');
    const r = rig(cdek);
    await r.quote();
    expect((await r.quote({}, { cache: { store: r.store, ttlMs: TTL, scope: 'live' } })).fromCache).toEqual(
      [],
    );
    const rebuilt = scripted('cdek');
    const set = { adapters: new Map([['cdek', rebuilt as CarrierAdapter]]), disabled: new Set<string>() };
    const res = await quoteAll(SHIPMENT, set, r.health, {
      deadlineMs: 2_000,
      carrierTimeoutMs: 50,
      cache: { store: r.store, ttlMs: TTL, scope: 'sandbox' },
    });
    expect(res.fromCache).toEqual([]);
    expect(rebuilt.calls).toBe(1);
  });

  it('without a cache (TTL 0) every quote calls the carrier', async () => {
    const cdek = scripted('cdek');
    const r = rig(cdek);
    await r.quote({}, { cache: undefined });
    await r.quote({}, { cache: undefined });
    expect(cdek.calls).toBe(2);
  });
});
