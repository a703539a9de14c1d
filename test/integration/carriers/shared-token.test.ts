// A company server's carriers (#19): two instances on one PostgreSQL database log in to CDEK once, get one
// 5Post JWT and download 5Post's catalogue once, however many quotes each has in flight. The instances are
// two PgStores with their adapters, against the carriers' own simulators.
import { afterEach, describe, expect, it } from 'vitest';
import { createCdekAdapter } from '../../../core/carriers/cdek';
import { createFivePostAdapter } from '../../../core/carriers/fivepost';
import { startCdekSimulator } from '../../../core/carriers/simulators/cdek';
import { startFivePostSimulator } from '../../../core/carriers/simulators/fivepost';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../core/carriers/types';
import { openPgStore, type PgStore } from '../../../core/store/postgres';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { makeQuoteRequest } from '../../../core/carriers/quote-request';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Instances on one new database; `more()` opens another on it later. */
async function instances(): Promise<{ a: PgStore; b: PgStore; more(): Promise<PgStore> }> {
  const url = await createTestDatabase('tokens');
  const stores: PgStore[] = [];
  cleanups.push(async () => {
    for (const s of stores) await s.close();
    await dropTestDatabase(url);
  });
  const more = async () => {
    const store = await openPgStore(url);
    stores.push(store);
    return store;
  };
  return { a: await more(), b: await more(), more };
}

function request(to: CarrierQuoteRequest['to']): CarrierQuoteRequest {
  return makeQuoteRequest({
    from: { city: 'Москва', postalCode: '101000' },
    to,
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
    declaredValueKopecks: 0,
  });
}

const ctx = () => ({ signal: AbortSignal.timeout(20_000) });
const ok = (out: CarrierOutcome) => {
  if (!out.ok) throw new Error(`expected rates, got ${out.kind}: ${'detail' in out ? out.detail : ''}`);
  return out.rates;
};

describe('carriers of a company server', () => {
  it('log in to CDEK once for both instances, and again once after CDEK refused the token', async () => {
    const { a, b } = await instances();
    const sim = await startCdekSimulator();
    cleanups.push(() => sim.close());
    const adapter = (store: PgStore) =>
      createCdekAdapter({
        baseUrl: sim.url,
        clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
        clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
        coordination: store.carrierCoordination,
      });
    const [first, second] = [adapter(a), adapter(b)];
    const to = { city: 'Новосибирск', postalCode: '630000' };
    const outs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? first : second).quote(request(to), ctx())),
    );
    outs.forEach(ok);
    expect(sim.tokenRequests()).toBe(1);

    // A rotation: both instances' token is refused; one of them logs in again, the other takes its token.
    sim.revokeTokens();
    await Promise.all([first.quote(request(to), ctx()), second.quote(request(to), ctx())]);
    ok(await first.quote(request(to), ctx()));
    ok(await second.quote(request(to), ctx()));
    expect(sim.tokenRequests()).toBeLessThanOrEqual(3);
  });

  it('without a company store each adapter logs in for itself (the desk, unchanged)', async () => {
    const sim = await startCdekSimulator();
    cleanups.push(() => sim.close());
    const make = () =>
      createCdekAdapter({
        baseUrl: sim.url,
        clientId: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
        clientSecret: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
      });
    const to = { city: 'Новосибирск', postalCode: '630000' };
    ok(await make().quote(request(to), ctx()));
    ok(await make().quote(request(to), ctx()));
    expect(sim.tokenRequests()).toBe(2);
  });

  it("download 5Post's catalogue once, with one JWT, for both instances", async () => {
    const { a, b, more } = await instances();
    const sim = await startFivePostSimulator({ apiKey: 'company-key' });
    cleanups.push(() => sim.close());
    const adapter = (store: PgStore) =>
      createFivePostAdapter({
        baseUrl: sim.url,
        apiKey: 'company-key',
        store: store.pickupCatalogue,
        coordination: store.carrierCoordination,
      });
    const [first, second] = [adapter(a), adapter(b)];
    const to = { city: 'Казань', postalCode: '420000' };
    const outs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? first : second).quote(request(to), ctx())),
    );
    outs.forEach(ok);
    expect(sim.tokenRequests()).toBe(1);
    const pages = sim.pageRequests();
    // A third instance starting later quotes from the stored catalogue: no download, no login.
    const third = adapter(await more());
    ok(await third.quote(request({ city: 'Самара', postalCode: null }), ctx()));
    expect(sim.pageRequests()).toBe(pages);
    expect(sim.tokenRequests()).toBe(1);
  });
});
