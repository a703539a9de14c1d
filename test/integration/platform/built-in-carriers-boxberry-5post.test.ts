// The catalogue entries of Boxberry and 5Post (#11): sandbox credentials only their simulators accept, live
// credentials from settings, and 5Post's catalogue kept in the data file the environment hands over.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtInCarriers, type BuiltInCarrier } from '../../../core/platform/built-in-carriers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { createLocationResolver } from '../../../core/locations/resolver';
import { SettingsView } from '../../../core/settings/view';
import { openStore, type SqliteStore } from '../../../core/store';
import { silentLogger } from '../../../core/util/logger';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const open: Array<SqliteStore | SimulatorHandle> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

let loaded: BuiltInCarrier[] = [];
beforeAll(async () => {
  loaded = await builtInCarriers();
});

function carrier(code: string): BuiltInCarrier {
  return loaded.find((c) => c.code === code)!;
}

async function storeWith(settings: Record<string, string> = {}): Promise<SqliteStore> {
  const store = openStore(':memory:');
  open.push(store);
  await store.settings.write(
    Object.entries(settings).map(([name, value]) => ({ name, value })),
    new Date().toISOString(),
  );
  return store;
}

async function simulatorOf(c: BuiltInCarrier): Promise<SimulatorHandle> {
  const sim = await c.startSimulator({ latencyMs: 0 });
  open.push(sim);
  return sim;
}

const request = (over: Partial<CarrierQuoteRequest> = {}): CarrierQuoteRequest =>
  makeQuoteRequest({
    from: { city: 'Москва', postalCode: null },
    to: { city: 'Казань', postalCode: null },
    parcel: { weight_grams: 4200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
    ...over,
  });
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

describe('Boxberry in the catalogue', () => {
  it('the sandbox token reaches its simulator; live mode takes carriers.boxberry.token', async () => {
    const bb = carrier('boxberry');
    const sim = await simulatorOf(bb);
    const sandbox = bb.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView((await storeWith()).settings),
    );
    expect(await sandbox.quote(request(), ctx())).toMatchObject({ ok: true });
    expect(sandbox.limits).toEqual({ maxWeightGrams: 31_000, maxSumOfSidesCm: 250 });

    const unset = bb.create(
      { baseUrl: sim.url, simulated: false },
      new SettingsView((await storeWith()).settings),
    );
    expect(await unset.quote(request(), ctx())).toMatchObject({ ok: false, kind: 'not_configured' });
    const wrong = bb.create(
      { baseUrl: sim.url, simulated: false },
      new SettingsView((await storeWith({ 'carriers.boxberry.token': 'a-real-token' })).settings),
    );
    expect(await wrong.quote(request(), ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
  });
});

describe('5Post in the catalogue', () => {
  it('keeps its catalogue in the store’s pickup catalogue: a rebuilt adapter quotes without a call', async () => {
    const fp = carrier('5post');
    const sim = await simulatorOf(fp);
    const store = await storeWith();
    const environment = {
      locations: createLocationResolver(),
      logger: silentLogger,
      pickupCatalogue: store.pickupCatalogue,
    };
    const first = fp.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView(store.settings),
      environment,
    );
    expect(await first.quote(request(), ctx())).toMatchObject({ ok: true });
    const calls = sim.requestCount();
    const rebuilt = fp.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView(store.settings),
      environment,
    );
    expect(await rebuilt.quote(request(), ctx())).toMatchObject({ ok: true });
    expect(sim.requestCount()).toBe(calls);
    const row = store.db.prepare('SELECT count(*) AS n FROM fivepost_points').get() as { n: number };
    expect(row.n).toBeGreaterThan(50);
  });

  it('carriers.5post.overweight chooses the rule above 3 kg; live mode needs carriers.5post.apikey', async () => {
    const fp = carrier('5post');
    const sim = await simulatorOf(fp);
    const price = async (settings: Record<string, string>) => {
      const a = fp.create(
        { baseUrl: sim.url, simulated: true },
        new SettingsView((await storeWith(settings)).settings),
      );
      const out = await a.quote(request(), ctx());
      if (!out.ok) throw new Error(out.kind);
      return out.rates.find((r) => r.service_code === '5post:POSTAMAT')!.price_kopecks;
    };
    expect(await price({})).toBeGreaterThan(await price({ 'carriers.5post.overweight': 'proportional' }));
    const live = fp.create(
      { baseUrl: sim.url, simulated: false },
      new SettingsView((await storeWith()).settings),
    );
    expect(await live.quote(request(), ctx())).toMatchObject({ ok: false, kind: 'not_configured' });
    expect(fp.configKeys).toEqual(['carriers.5post.apikey', 'carriers.5post.overweight']);
  });
});
