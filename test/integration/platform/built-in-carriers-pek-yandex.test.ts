// The built-in carriers build the PEK and Yandex adapters from settings (#11): PEK's products (carriers.pek.types),
// live credentials (login + API key; a Yandex token alone), not_configured without them, and the simulators'
// own sandbox accounts.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtInCarriers, type BuiltInCarrier } from '../../../core/platform/built-in-carriers';
import type { SimulatorHandle } from '../../../core/carriers/simulators/handle';
import type { CarrierQuoteRequest } from '../../../core/carriers/types';
import { SettingsView } from '../../../core/settings/view';
import { openStore, type Store } from '../../../core/store';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const open: Array<Store | SimulatorHandle> = [];
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

async function settings(values: Record<string, string>): Promise<SettingsView> {
  const store = openStore(':memory:');
  open.push(store);
  await store.settings.write(
    Object.entries(values).map(([name, value]) => ({ name, value })),
    new Date().toISOString(),
  );
  return new SettingsView(store.settings);
}

async function simulatorOf(c: BuiltInCarrier): Promise<SimulatorHandle> {
  const sim = await c.startSimulator({ latencyMs: 0 });
  open.push(sim);
  return sim;
}

const request: CarrierQuoteRequest = makeQuoteRequest({
  from: { city: 'Москва', postalCode: null },
  to: { city: 'Казань', postalCode: null },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
});
const ctx = () => ({ signal: AbortSignal.timeout(10_000) });

describe('PEK and Yandex in the catalogue', () => {
  it('both start switched on, like every built-in carrier (sandbox answers from their simulators)', async () => {
    const s = await settings({});
    expect(s.get('carriers.pek.enabled')).toBe('on');
    expect(s.get('carriers.yandex.enabled')).toBe('on');
  });

  it('PEK asks for the products of carriers.pek.types', async () => {
    const pek = carrier('pek');
    const sim = await simulatorOf(pek);
    const adapter = pek.create(
      { baseUrl: sim.url, simulated: true },
      await settings({ 'carriers.pek.types': '3,1' }),
    );
    const out = await adapter.quote(request, ctx());
    expect(out.ok && out.rates.map((r) => r.service_code).sort()).toEqual([
      'pek:1:door',
      'pek:1:terminal',
      'pek:3:door',
      'pek:3:terminal',
    ]);
  });

  it('live without credentials: not_configured, naming what is missing', async () => {
    const live = { baseUrl: 'http://127.0.0.1:9', simulated: false };
    expect(
      await carrier('pek')
        .create(live, await settings({}))
        .quote(request, ctx()),
    ).toEqual({
      ok: false,
      kind: 'not_configured',
      detail: 'PEK login is not set',
    });
    expect(
      await carrier('pek')
        .create(live, await settings({ 'carriers.pek.login': 'shop' }))
        .quote(request, ctx()),
    ).toMatchObject({ kind: 'not_configured', detail: 'PEK API key is not set' });
    expect(
      await carrier('yandex')
        .create(live, await settings({}))
        .quote(request, ctx()),
    ).toMatchObject({
      kind: 'not_configured',
    });
  });

  it('live credentials go to the carrier: the simulator refuses them (they are not its sandbox account)', async () => {
    const pek = carrier('pek');
    const sim = await simulatorOf(pek);
    const s = await settings({ 'carriers.pek.login': 'shop', 'carriers.pek.api_key': 'real-key' });
    const out = await pek.create({ baseUrl: sim.url, simulated: false }, s).quote(request, ctx());
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });

    const yandex = carrier('yandex');
    const ysim = await simulatorOf(yandex);
    const y = yandex.create(
      { baseUrl: ysim.url, simulated: false },
      await settings({ 'carriers.yandex.token': 'y2_real' }),
    );
    expect(await y.quote(request, ctx())).toMatchObject({ ok: false, kind: 'carrier_error' });
  });

  it('the sandbox account answers on each simulator', async () => {
    for (const code of ['pek', 'yandex']) {
      const c = carrier(code);
      const sim = await simulatorOf(c);
      const out = await c
        .create({ baseUrl: sim.url, simulated: true }, await settings({}))
        .quote(request, ctx());
      expect(out.ok).toBe(true);
    }
  });
});
