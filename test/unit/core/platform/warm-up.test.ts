import { describe, expect, it } from 'vitest';
import type { CarrierAdapter, CarrierQuoteRequest, PrepareContext } from '../../../../core/carriers/types';
import { WarmUp, type WarmUpDeps } from '../../../../core/platform/warm-up';
import type { CarrierSet } from '../../../../core/rating/aggregator';
import { silentLogger } from '../../../../core/util/logger';

interface FakeCarrier {
  adapter: CarrierAdapter;
  prepared: PrepareContext[];
  quoted: CarrierQuoteRequest[];
  signals: AbortSignal[];
}

const RATE = {
  carrier: 'x',
  carrier_name: 'X',
  service_code: 's',
  service_name: 'S',
  delivery_type: 'door',
  price_kopecks: 100,
  currency: 'RUB',
  price_type: 'public',
} as const;

function fake(
  code: string,
  behave: {
    prepare?: (ctx: PrepareContext) => Promise<void>;
    quote?: (signal: AbortSignal) => Promise<void>;
  } = {},
): FakeCarrier {
  const c: FakeCarrier = { prepared: [], quoted: [], signals: [], adapter: undefined as never };
  c.adapter = {
    code,
    name: code,
    async quote(request, { signal }) {
      c.quoted.push(request);
      c.signals.push(signal);
      await behave.quote?.(signal);
      return { ok: true, rates: [{ ...RATE, carrier: code }] };
    },
    async prepare(ctx) {
      c.prepared.push(ctx);
      await behave.prepare?.(ctx);
    },
  };
  return c;
}

function deps(carriers: FakeCarrier[], simulated: string[], extra: Partial<WarmUpDeps> = {}): WarmUpDeps {
  const set: CarrierSet = {
    adapters: new Map(carriers.map((c) => [c.adapter.code, c.adapter])),
    disabled: new Set(),
  };
  return {
    carrierSet: () => Promise.resolve(set),
    simulated: (code) => simulated.includes(code),
    sandbox: () => simulated.length === carriers.length,
    route: () =>
      Promise.resolve({
        from: { city: 'Тула', postal_code: '300000' },
        to: { city: 'Орёл', postal_code: '302000' },
      }),
    deadlineMs: () => 5000,
    carrierTimeoutMs: () => 5000,
    logger: silentLogger,
    ...extra,
  };
}

/** Rejects when the signal fires (a prepare or quote that runs until it is stopped). */
const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error));
  });

describe('WarmUp', () => {
  it('sandbox: code, then every prepare (not live), then one quote of the route to every carrier', async () => {
    const a = fake('a');
    const b = fake('b');
    const report = await new WarmUp(deps([a, b], ['a', 'b'])).settled;
    expect(report.mode).toBe('sandbox');
    expect(report.stopped).toBeNull();
    expect(report.phases.map((p) => p.phase)).toEqual(['code', 'directories', 'quote']);
    expect(a.prepared.map((p) => p.live)).toEqual([false]);
    expect(b.prepared.map((p) => p.live)).toEqual([false]);
    expect(a.quoted).toHaveLength(1);
    expect(a.quoted[0]!.from).toEqual({ city: 'Тула', postalCode: '300000' });
    expect(a.quoted[0]!.to).toEqual({ city: 'Орёл', postalCode: '302000' });
    expect(b.quoted).toHaveLength(1);
  });

  it('live: a real carrier is prepared as live and never quoted; a simulated one beside it is', async () => {
    const real = fake('real');
    const sim = fake('sim');
    const report = await new WarmUp(deps([real, sim], ['sim'])).settled;
    expect(report.mode).toBe('live');
    expect(real.prepared.map((p) => p.live)).toEqual([true]);
    expect(real.quoted).toEqual([]);
    expect(sim.quoted).toHaveLength(1);
  });

  it('live with no simulated carrier: no quote phase at all', async () => {
    const real = fake('real');
    const report = await new WarmUp(deps([real], [])).settled;
    expect(report.phases.map((p) => p.phase)).toEqual(['code', 'directories']);
    expect(real.quoted).toEqual([]);
  });

  it('a real quote starting during the throwaway quote aborts it, and nothing more runs', async () => {
    const ref: { warm?: WarmUp } = {};
    const a = fake('a', {
      quote: (signal) => {
        // The desk's quote arrives while this carrier is being asked.
        setImmediate(() => ref.warm!.quoteStarted());
        return untilAborted(signal);
      },
    });
    ref.warm = new WarmUp(deps([a], ['a']));
    const report = await ref.warm.settled;
    expect(report.stopped).toBe('quote');
    expect(report.phases.map((p) => p.phase)).toEqual(['code', 'directories']);
    expect(a.signals[0]!.aborted).toBe(true);
  });

  it('a real quote starting while the route is read stops it; no carrier is asked and nothing rejects unheard', async () => {
    // On a company server the route is a database read: a /v1 quote landing then crashed serve (an unhandled
    // rejection of the aborted carrier calls) in the crash soak.
    const unheard: unknown[] = [];
    const listen = (reason: unknown): void => void unheard.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const ref: { warm?: WarmUp } = {};
      const a = fake('a', { quote: async (signal) => signal.throwIfAborted() });
      const base = deps([a], ['a']);
      ref.warm = new WarmUp({
        ...base,
        route: async () => {
          ref.warm!.quoteStarted();
          return base.route();
        },
      });
      const report = await ref.warm.settled;
      expect(report.stopped).toBe('quote');
      expect(report.phases.map((p) => p.phase)).toEqual(['code', 'directories']);
      expect(a.quoted).toEqual([]);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(unheard).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });

  it('a real quote before the warm-up began leaves it nothing to do', async () => {
    const a = fake('a');
    const warm = new WarmUp(deps([a], ['a']));
    warm.quoteStarted();
    const report = await warm.settled;
    expect(report).toMatchObject({ stopped: 'quote', phases: [] });
    expect(a.prepared).toEqual([]);
    expect(a.quoted).toEqual([]);
  });

  it('close() during a download stops the warm-up at once', async () => {
    const ref: { warm?: WarmUp } = {};
    let closed: Promise<unknown> | undefined;
    const a = fake('a', {
      prepare: (ctx) => {
        closed = ref.warm!.close();
        return untilAborted(ctx.signal);
      },
    });
    ref.warm = new WarmUp(deps([a], ['a']));
    const report = await ref.warm.settled;
    await closed;
    expect(report.stopped).toBe('close');
    expect(a.prepared[0]!.signal.aborted).toBe(true);
    expect(a.quoted).toEqual([]);
  });

  it('a prepare that fails costs nothing: the quote phase still runs', async () => {
    const a = fake('a', { prepare: () => Promise.reject(new Error('list unreadable')) });
    const report = await new WarmUp(deps([a], ['a'])).settled;
    expect(report.phases.map((p) => p.phase)).toEqual(['code', 'directories', 'quote']);
    expect(a.quoted).toHaveLength(1);
  });

  it('runs only the phases it is given (the benchmark breakdown)', async () => {
    const a = fake('a');
    const report = await new WarmUp(deps([a], ['a'], { phases: ['code'] })).settled;
    expect(report.phases.map((p) => p.phase)).toEqual(['code']);
    expect(a.prepared).toEqual([]);
    expect(a.quoted).toEqual([]);
  });

  it('a failing carrier set is logged as a warning, never thrown', async () => {
    const warned: string[] = [];
    const report = await new WarmUp(
      deps([], [], {
        carrierSet: () => Promise.reject(new Error('settings unreadable')),
        logger: { ...silentLogger, warn: (m) => warned.push(m) },
      }),
    ).settled;
    expect(report.phases).toEqual([]);
    expect(warned).toEqual(['warm-up failed']);
  });
});
