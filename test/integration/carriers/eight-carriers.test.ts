// #11 "done means": all eight carriers at once, two hanging and one failing. The answer is a 200 with the
// five others' rates and three unavailable entries, and it takes about one carrier timeout: a hung carrier
// costs only its own timeout and delays nobody else. Faults come from the fault proxy in front of the
// sandbox simulators, keyed by the request's parcel weight (test/helpers/fault-proxy.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CARRIER_CODES } from '../../../core/carriers/types';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

const CARRIER_TIMEOUT_MS = 1_000;
const PALLET = { weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 };

let t: TestService;
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy(CARRIER_CODES);
  t = await startTestService({
    sandboxFront: proxy.front,
    settings: {
      'rating.carrier_timeout_ms': String(CARRIER_TIMEOUT_MS),
      'rating.deadline_ms': '8000',
      'rating.cache_ttl_ms': '0',
    },
  });
  // Adapters are built, tokens fetched and 5Post's catalogue downloaded on the first quote.
  const warm = await t.postRates({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 1_201 } });
  expect(warm.status, warm.text).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await proxy?.close();
});

it('Москва → Казань: every one of the eight carriers answers', async () => {
  const r = await t.postRates(SHIPMENT);
  expect(r.status).toBe(200);
  expect(r.json.unavailable).toEqual([]);
  const answered = new Set(r.json.rates.map((x: { carrier: string }) => x.carrier));
  expect([...answered].sort()).toEqual([...CARRIER_CODES].sort());
});

it('two carriers hang and one fails: 200 with the five others, three reasons, in about one carrier timeout', async () => {
  const weight = 1_333;
  proxy.plan(weight, 'dpd', { kind: 'hang' });
  proxy.plan(weight, 'pek', { kind: 'hang' });
  proxy.plan(weight, 'boxberry', { kind: 'http_status', status: 500, body: 'html' });
  const started = performance.now();
  const r = await t.postRates({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: weight } });
  const ms = performance.now() - started;
  proxy.forget(weight);

  expect(r.status, r.text).toBe(200);
  expect(r.json.unavailable).toEqual([
    { carrier: 'boxberry', reason: expect.stringMatching(/^carrier error: /) },
    { carrier: 'dpd', reason: 'timeout' },
    { carrier: 'pek', reason: 'timeout' },
  ]);
  const answered = new Set(r.json.rates.map((x: { carrier: string }) => x.carrier));
  expect([...answered].sort()).toEqual(['5post', 'cdek', 'dellin', 'russian-post', 'yandex']);
  // The faults were really applied (not a lucky pass-through).
  for (const c of ['dpd', 'pek', 'boxberry']) expect(proxy.hits(weight, c)).toBeGreaterThan(0);
  // About one carrier timeout: not cut short, and not two timeouts in a row.
  expect(ms).toBeGreaterThanOrEqual(CARRIER_TIMEOUT_MS - 50);
  expect(ms).toBeLessThan(2 * CARRIER_TIMEOUT_MS);
  expect(r.json.balance_remaining).toBeTypeOf('number');
});

it('a 900 kg, 300×300×300 cm pallet: terminal rates from the freight carriers, "exceeds limits" from the parcel ones', async () => {
  const r = await t.postRates({
    from: { city: 'Москва', postal_code: '101000' },
    to: { city: 'Казань', postal_code: '420000' },
    parcel: PALLET,
  });
  expect(r.status, r.text).toBe(200);
  const rates = r.json.rates as Array<{ carrier: string; delivery_type: string }>;
  for (const freight of ['dellin', 'pek']) {
    expect(rates.some((x) => x.carrier === freight && x.delivery_type === 'terminal')).toBe(true);
  }
  const reasons = new Map(
    (r.json.unavailable as Array<{ carrier: string; reason: string }>).map((u) => [u.carrier, u.reason]),
  );
  for (const parcelCarrier of ['russian-post', 'boxberry', 'yandex']) {
    expect(reasons.get(parcelCarrier)).toMatch(/^parcel exceeds carrier limits: /);
  }
  expect(JSON.stringify(r.json)).not.toContain('no service on this route');
});
