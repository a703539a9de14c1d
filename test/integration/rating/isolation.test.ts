// #10 item 4: a carrier that hangs costs only its own timeout and delays nothing else. Twenty quotes hang on
// Russian Post (five connections each, a hundred in all, well past the 32 per origin that starved every
// other quote before); a normal quote from another account must still come back at its usual latency with
// rates from every carrier, and every hung connection must be closed the moment its quote times out.
// Real HTTP on 127.0.0.1: the service, the fault proxy (test/helpers/fault-proxy.ts) and the simulators.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount, setLimits } from '../../../core/operations';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy';
import {
  FIRST_TWO_CARRIERS,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';
import { CARRIER_CODES } from '../../../core/carriers/types';

const CARRIER_TIMEOUT_MS = 3_000;
const HUNG = 20;
/** Russian Post sends one GET per product: five per quote with the default products. */
const RP_CALLS_PER_QUOTE = 5;

let t: TestService;
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy(CARRIER_CODES);
  t = await startTestService({
    sandboxFront: proxy.front,
    settings: {
      ...FIRST_TWO_CARRIERS,
      'rating.carrier_timeout_ms': String(CARRIER_TIMEOUT_MS),
      'rating.deadline_ms': '8000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await proxy?.close();
});

/** Weights double as the fault proxy's tags; a new weight is also a shipment the rate cache has not seen. */
const quote = (weight: number, key?: string): Promise<HttpResult> =>
  t.postRates({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: weight } }, {}, key);

async function timed(send: () => Promise<HttpResult>): Promise<{ r: HttpResult; ms: number }> {
  const started = performance.now();
  const r = await send();
  return { r, ms: performance.now() - started };
}

const carriersOf = (r: HttpResult): string[] =>
  [...new Set((r.json.rates as { carrier: string }[]).map((x) => x.carrier))].sort();

it(`with ${HUNG} quotes hung on one carrier, a normal quote answers at its usual latency with every carrier`, async () => {
  const clock = { now: () => new Date() };
  createAccount(t.service.store, clock, { name: 'other', balance: 1_000 });
  setLimits(t.service.store, clock, { account: 'other', rps: 100, burst: 100 });
  const otherKey = t.newKey('other');

  // The usual latency, on this machine, now: a few clean quotes (the first also fetches CDEK's token).
  const usual: number[] = [];
  for (let i = 0; i < 6; i++) {
    const { r, ms } = await timed(() => quote(2_900 + i, otherKey));
    expect(r.status, r.text).toBe(200);
    expect(carriersOf(r)).toEqual(['cdek', 'russian-post']);
    if (i > 0) usual.push(ms);
  }
  usual.sort((a, b) => a - b);
  const usualMs = usual[Math.floor(usual.length / 2)]!;

  const hung = Array.from({ length: HUNG }, (_, i) => {
    const weight = 3_001 + i;
    proxy.plan(weight, 'russian-post', { kind: 'hang' });
    return timed(() => quote(weight));
  });
  // Every hung quote's five requests reach the carrier and hold a connection each (with too small a pool,
  // the count stops short and the rest wait for a connection: then the normal quote below waits too).
  let seen = 0;
  let stableSince = performance.now();
  while (proxy.openExchanges() < HUNG * RP_CALLS_PER_QUOTE && performance.now() - stableSince < 300) {
    if (proxy.openExchanges() !== seen) [seen, stableSince] = [proxy.openExchanges(), performance.now()];
    await new Promise((r) => setTimeout(r, 5));
  }

  const normal = await timed(() => quote(3_100, otherKey));
  const open = proxy.openExchanges();
  console.log(
    `isolation: usual ${usualMs.toFixed(1)} ms (rounds ${usual.map((x) => x.toFixed(1)).join(', ')}); ` +
      `with ${open} hung carrier calls in flight ${normal.ms.toFixed(1)} ms`,
  );
  expect(normal.r.status, normal.r.text).toBe(200);
  expect(normal.r.json.unavailable).toEqual([]);
  expect(carriersOf(normal.r)).toEqual(['cdek', 'russian-post']);
  // Its usual latency, with room for a busy 2-core machine, and nowhere near the hung carrier's timeout.
  expect(normal.ms).toBeLessThan(usualMs + 250);
  expect(open, 'the hung calls were still in flight during the normal quote').toBe(HUNG * RP_CALLS_PER_QUOTE);

  // Each hung quote cost exactly the hung carrier's timeout, and still brought CDEK's rates.
  for (const { r, ms } of await Promise.all(hung)) {
    expect(r.status, r.text).toBe(200);
    expect(r.json.unavailable).toEqual([{ carrier: 'russian-post', reason: 'timeout' }]);
    expect(carriersOf(r)).toEqual(['cdek']);
    expect(ms).toBeGreaterThanOrEqual(CARRIER_TIMEOUT_MS - 10);
    expect(ms).toBeLessThan(CARRIER_TIMEOUT_MS + 500);
  }
  // A timed-out request gives its connection back at once: none is left open on the carrier's side.
  const closedBy = performance.now() + 200;
  while (proxy.openExchanges() > 0 && performance.now() < closedBy)
    await new Promise((r) => setTimeout(r, 5));
  expect(proxy.openExchanges()).toBe(0);
}, 30_000);
