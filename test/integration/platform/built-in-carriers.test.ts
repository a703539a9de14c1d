// The built-in carriers build each adapter from settings (#10): CDEK's contract type, Russian Post's product list,
// and the environment the registry shares (location resolver with its SQLite cache, logger).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtInCarriers, declaredOnly, type BuiltInCarrier } from '../../../core/platform/built-in-carriers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import {
  createLocationResolver,
  type LocationResolver,
  type LocationWant,
} from '../../../core/locations/resolver';
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

async function storeWith(settings: Record<string, string>): Promise<SqliteStore> {
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
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
    ...over,
  });
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

describe('the catalogue builds adapters from settings', () => {
  it('Russian Post asks for the products of carriers.russian-post.objects', async () => {
    const rp = carrier('russian-post');
    const sim = await simulatorOf(rp);
    const store = await storeWith({ 'carriers.russian-post.objects': '7030,27030' });
    const adapter = rp.create({ baseUrl: sim.url, simulated: true }, new SettingsView(store.settings));
    const before = sim.requestCount();
    const out = await adapter.quote(request(), ctx());
    expect(out.ok && out.rates.map((r) => r.service_code).sort()).toEqual([
      'russian-post:27030',
      'russian-post:7030',
    ]);
    expect(sim.requestCount() - before).toBe(2);
    expect(adapter.limits?.maxWeightGrams).toBe(31_500);
  });

  it('CDEK asks its configured contract type first (carriers.cdek.contract_type)', async () => {
    const cdek = carrier('cdek');
    const sim = await simulatorOf(cdek);
    const shop = cdek.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView((await storeWith({})).settings),
    );
    const delivery = cdek.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView((await storeWith({ 'carriers.cdek.contract_type': '2' })).settings),
    );
    const codes = async (a: typeof shop) => {
      const out = await a.quote(request(), ctx());
      return out.ok ? out.rates.map((r) => r.service_code) : [];
    };
    expect(await codes(shop)).toContain('cdek:136'); // Посылка: online-store tariffs
    expect(await codes(delivery)).toContain('cdek:751'); // Сборный груз: delivery-contract tariffs
    expect(await codes(delivery)).not.toContain('cdek:136');
  });

  it('adapters use the environment they are given: the SQLite location cache', async () => {
    const cdek = carrier('cdek');
    const sim = await simulatorOf(cdek);
    const store = await storeWith({});
    const environment = {
      locations: createLocationResolver({ cache: store.locationCache }),
      logger: silentLogger,
    };
    const adapter = cdek.create(
      { baseUrl: sim.url, simulated: true },
      new SettingsView(store.settings),
      environment,
    );
    const out = await adapter.quote(request({ to: { city: 'Сириус', postalCode: null } }), ctx());
    expect(out.ok).toBe(true);
    expect(store.db.prepare('SELECT namespace, want, place_key FROM location_cache').all()).toEqual([
      { namespace: `cdek ${sim.url}`, want: 'cdek_city_code', place_key: 'сириус||' },
    ]);
  });
});

describe('location needs come from the descriptor', () => {
  it('each carrier asks the resolver for the places its descriptor declares, and no others', async () => {
    for (const c of loaded) {
      const sim = await simulatorOf(c);
      const asked = new Set<LocationWant>();
      const inner = createLocationResolver();
      const environment = {
        locations: {
          resolve: (place, want, options) => {
            asked.add(want);
            return inner.resolve(place, want, options);
          },
        } satisfies LocationResolver,
        logger: silentLogger,
      };
      const adapter = c.create(
        { baseUrl: sim.url, simulated: true },
        new SettingsView((await storeWith({})).settings),
        environment,
      );
      // Kazan is in every table; Сириус has no postal index of its own, so CDEK asks its directory.
      for (const city of ['Казань', 'Сириус']) {
        await adapter.quote(request({ to: { city, postalCode: null } }), ctx());
      }
      expect({ code: c.code, asked: [...asked].sort() }).toEqual({
        code: c.code,
        asked: [...c.descriptor.locations].sort(),
      });
    }
  });

  it('a resolver narrowed to a descriptor refuses any other place, naming it', async () => {
    const narrowed = declaredOnly(
      'russian-post',
      carrier('russian-post').descriptor.locations,
      createLocationResolver(),
    );
    await expect(narrowed.resolve({ city: 'Казань', postalCode: null }, 'kladr_id')).rejects.toThrow(
      'russian-post asked for kladr_id, which its descriptor does not declare',
    );
    expect(await narrowed.resolve({ city: 'Казань', postalCode: null }, 'postal_code')).toMatchObject({
      ok: true,
      value: '420000',
    });
  });
});
