// POST /ext/v1/rates (#21): the clerk's quote beside /v1, on the same listener, with /v1's auth, limits,
// balance, idempotency and error bodies (docs/api.md, "Clerk's quote extension (/ext/v1)").
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QuoteRate, QuoteRequest, QuoteResponse } from '../../../core/contract/quote-ext';
import { createAccount, setLimits } from '../../../core/operations';
import type { SqliteStore } from '../../../core/store';
import {
  FIRST_TWO_CARRIERS,
  rawRequest,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';

const clock = { now: () => new Date() };

/** Two boxes of one size and one other, cash on delivery, a ship date: all the extension adds. */
const EXT_SHIPMENT = {
  from: SHIPMENT.from,
  to: SHIPMENT.to,
  places: [
    { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 },
    { weight_grams: 500, length_cm: 20, width_cm: 15, height_cm: 10 },
  ],
  declared_value_kopecks: 300_000,
  cod_kopecks: 250_000,
  ship_date: '2031-03-05',
};

function postExt(
  t: TestService,
  path: '/ext/v1/rates' | '/ext/v1/points',
  body: unknown,
  extra: Record<string, string> = {},
  key: string | null = t.key,
): Promise<HttpResult> {
  return rawRequest(t.port, {
    method: 'POST',
    path,
    headers: {
      ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      'Content-Type': 'application/json',
      ...extra,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const ledgerCount = (s: TestService): number =>
  (
    (s.service.store as SqliteStore).db
      .prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'rates'")
      .get() as { n: number }
  ).n;

function expectError(r: HttpResult, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.json.error.code).toBe(code);
  expect(r.json.error.request_id).toMatch(/^req_[0-9A-Za-z]{20}$/);
  expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
});
afterAll(() => t.close());

describe('POST /ext/v1/rates: the answer', () => {
  it('200 with a QuoteResponse: every place priced, the ship date, fees, dates; one request charged', async () => {
    const before = (await t.get('/v1/balance')).json.balance as number;
    const ledger = ledgerCount(t);
    const r = await postExt(t, '/ext/v1/rates', EXT_SHIPMENT);
    expect(r.status, r.text).toBe(200);
    const body = QuoteResponse.parse(r.json);
    expect(body.request_id).toBe(r.headers['x-request-id']);
    expect(body.rates.length).toBeGreaterThan(0);
    for (const rate of body.rates) {
      expect(rate.places).toBe(3);
      expect(rate.ship_date >= EXT_SHIPMENT.ship_date).toBe(true);
      expect(Object.keys(rate)).toEqual(
        expect.arrayContaining([
          'breakdown',
          'options_not_priced',
          'delivery_date_min',
          'customer_price_kopecks',
        ]),
      );
    }
    // Cheapest first, as /v1.
    const prices = body.rates.map((x) => x.price_kopecks);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(body.balance_remaining).toBe(before - 1);
    expect(ledgerCount(t)).toBe(ledger + 1);
    expect(r.headers['ratelimit']).toMatch(/^"account";r=\d+;t=\d+$/);
  });

  it('stores the QuoteRequest and the QuoteRates in history, the weight of every place', async () => {
    const r = await postExt(t, '/ext/v1/rates', EXT_SHIPMENT);
    expect(r.status).toBe(200);
    const stored = (await t.service.store.quotes.search('', 50, 0)).find(
      (q) => q.request_id === r.json.request_id,
    );
    expect(stored).toBeDefined();
    expect(stored!.source).toBe('api');
    expect(stored!.weight_grams).toBe(1200 * 2 + 500);
    const shipment = QuoteRequest.parse(JSON.parse(stored!.shipment_json));
    expect(shipment.cod_kopecks).toBe(250_000);
    expect(shipment.ship_date).toBe('2031-03-05');
    expect(shipment.places?.map((p) => p.count)).toEqual([2, 1]);
    const result = JSON.parse(stored!.result_json) as { rates: unknown[] };
    expect(result.rates.map((x) => QuoteRate.parse(x))).toHaveLength(r.json.rates.length);
  });

  it('takes a /v1-shaped body too (one parcel): the same path, the richer answer', async () => {
    const r = await postExt(t, '/ext/v1/rates', SHIPMENT);
    expect(r.status, r.text).toBe(200);
    for (const rate of QuoteResponse.parse(r.json).rates) expect(rate.places).toBe(1);
  });
});

describe('POST /ext/v1/rates: the errors of /v1', () => {
  it('401 without a key or with a wrong one, with WWW-Authenticate; nothing charged', async () => {
    const ledger = ledgerCount(t);
    const none = await postExt(t, '/ext/v1/rates', EXT_SHIPMENT, {}, null);
    expectError(none, 401, 'invalid_api_key');
    expect(none.headers['www-authenticate']).toBe('Bearer realm="ratedesk"');
    const wrong = await postExt(t, '/ext/v1/rates', EXT_SHIPMENT, {}, `${t.key.slice(0, -2)}zz`);
    expectError(wrong, 401, 'invalid_api_key');
    expect(ledgerCount(t)).toBe(ledger);
  });

  it('400 validation_failed with the paths of the problems (places[0].weight_grams, unknown fields)', async () => {
    const bad = await postExt(t, '/ext/v1/rates', {
      ...EXT_SHIPMENT,
      places: [{ weight_grams: 0, length_cm: 30, width_cm: 20, height_cm: 10, colour: 'red' }],
      cod_kopecks: -1,
      ship_date: '5 March',
      insurance: true,
    });
    expectError(bad, 400, 'validation_failed');
    const paths = (bad.json.error.details as Array<{ path: string; message: string }>).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'places[0].weight_grams',
        'places[0].colour',
        'cod_kopecks',
        'ship_date',
        'insurance',
      ]),
    );
    expect(bad.json.error.details).toContainEqual({ path: 'insurance', message: 'unknown property' });
    // Exactly one of parcel and places.
    const both = await postExt(t, '/ext/v1/rates', { ...EXT_SHIPMENT, parcel: SHIPMENT.parcel });
    expectError(both, 400, 'validation_failed');
    expect(both.json.error.details).toEqual([
      { path: 'places', message: 'give either parcel or places (not both)' },
    ]);
    const tooMany = await postExt(t, '/ext/v1/rates', {
      ...EXT_SHIPMENT,
      places: [
        { ...EXT_SHIPMENT.places[1], count: 30 },
        { ...EXT_SHIPMENT.places[1], count: 21 },
      ],
    });
    expectError(tooMany, 400, 'validation_failed');
    expect(tooMany.json.error.details).toEqual([{ path: 'places', message: 'at most 50 places in all' }]);
  });

  it('415, invalid_json, 413 and a bad Idempotency-Key exactly as /v1', async () => {
    const pairs: Array<[string | unknown, Record<string, string>, number, string]> = [
      [EXT_SHIPMENT, { 'Content-Type': 'text/plain' }, 415, 'unsupported_media_type'],
      ['{"from":', {}, 400, 'invalid_json'],
      ['[1]', {}, 400, 'invalid_json'],
      [{ ...EXT_SHIPMENT, pad: 'x'.repeat(17 * 1024) }, {}, 413, 'payload_too_large'],
      [EXT_SHIPMENT, { 'Idempotency-Key': 'bad key é' }, 400, 'invalid_idempotency_key'],
    ];
    for (const [body, headers, status, code] of pairs) {
      const ext = await postExt(t, '/ext/v1/rates', body, headers);
      expectError(ext, status, code);
      const v1 = await t.postRates(body, headers);
      expect(v1.status).toBe(status);
      expect(v1.json.error.message).toBe(ext.json.error.message);
    }
  });

  it('422 no_queryable_carrier / shipment_not_served as /v1', async () => {
    const only = await postExt(t, '/ext/v1/rates', { ...EXT_SHIPMENT, carriers: ['dhl'] });
    expectError(only, 422, 'no_queryable_carrier');
    expect(only.json.unavailable).toEqual([{ carrier: 'dhl', reason: 'unknown carrier' }]);
  });

  it('404 like /v1 for any other path under /ext/, 405 with Allow: POST for another method', async () => {
    for (const path of ['/ext/v1/nothing', '/ext/v2/rates', '/ext/', '/ext/v1/rates/']) {
      const r = await postExt(t, path as '/ext/v1/rates', EXT_SHIPMENT);
      expectError(r, 404, 'not_found');
      const v1 = await postExt(t, '/v1/nothing' as '/ext/v1/rates', EXT_SHIPMENT);
      expect(Object.keys(r.json.error)).toEqual(Object.keys(v1.json.error));
    }
    const get = await rawRequest(t.port, {
      path: '/ext/v1/rates',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expectError(get, 405, 'method_not_allowed');
    expect(get.headers.allow).toBe('POST');
  });
});

describe('POST /ext/v1/rates: balance and limits', () => {
  let s: TestService | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('402 insufficient_balance at 0: the last request is charged once, never below zero', async () => {
    s = await startTestService({ settings: FIRST_TWO_CARRIERS });
    await createAccount(s.service.store, clock, { name: 'last-one', balance: 1 });
    const key = await s.newKey('last-one');
    const first = await postExt(s, '/ext/v1/rates', EXT_SHIPMENT, {}, key);
    expect(first.status, first.text).toBe(200);
    expect(first.json.balance_remaining).toBe(0);
    const second = await postExt(s, '/ext/v1/rates', EXT_SHIPMENT, {}, key);
    expectError(second, 402, 'insufficient_balance');
    // The free endpoint still answers at 0: pickup points are not charged.
    const points = await postExt(s, '/ext/v1/points', POINTS_QUERY, {}, key);
    expect(points.status, points.text).toBe(200);
    expect((await s.get('/v1/balance', key)).json.balance).toBe(0);
  });

  it('429 rate_limit_exceeded from the account bucket /v1 shares, with Retry-After', async () => {
    s = await startTestService({ settings: FIRST_TWO_CARRIERS });
    await setLimits(s.service.store, clock, { account: 'default', rps: 1, burst: 1 });
    const ledger = ledgerCount(s);
    // The one token goes to /v1; the extension then finds the bucket empty (and its points endpoint too).
    const results = [
      await s.get('/v1/balance'),
      await postExt(s, '/ext/v1/rates', EXT_SHIPMENT),
      await postExt(s, '/ext/v1/points', POINTS_QUERY),
    ];
    expect(results[0]!.status).toBe(200);
    for (const r of results.slice(1)) {
      expectError(r, 429, 'rate_limit_exceeded');
      expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(r.headers['ratelimit']).toMatch(/r=0/);
    }
    expect(ledgerCount(s)).toBe(ledger);
  });
});

describe('POST /ext/v1/rates: idempotency', () => {
  it('the same key and body replays byte for byte, charged once', async () => {
    const ledger = ledgerCount(t);
    const key = { 'Idempotency-Key': 'ext-order-1' };
    const first = await postExt(t, '/ext/v1/rates', EXT_SHIPMENT, key);
    expect(first.status).toBe(200);
    // The same request written differently (key order, explicit defaults, carriers: null).
    const reordered = {
      ship_date: EXT_SHIPMENT.ship_date,
      cod_kopecks: EXT_SHIPMENT.cod_kopecks,
      places: EXT_SHIPMENT.places.map((p) => ({ count: 1, ...p })),
      declared_value_kopecks: EXT_SHIPMENT.declared_value_kopecks,
      to: { ...EXT_SHIPMENT.to, country: 'RU' },
      from: EXT_SHIPMENT.from,
      carriers: null,
    };
    const again = await postExt(t, '/ext/v1/rates', reordered, key);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['x-request-id']).toBe(first.json.request_id);
    expect(ledgerCount(t)).toBe(ledger + 1);
    const other = await postExt(t, '/ext/v1/rates', { ...EXT_SHIPMENT, cod_kopecks: 1 }, key);
    expectError(other, 422, 'idempotency_key_reused');
    expect(ledgerCount(t)).toBe(ledger + 1);
  });

  it('a key used on /v1/rates is reused (422) on /ext/v1/rates, even with the same shipment, and back', async () => {
    const ledger = ledgerCount(t);
    const v1First = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'cross-1' });
    expect(v1First.status).toBe(200);
    for (const body of [SHIPMENT, EXT_SHIPMENT]) {
      const r = await postExt(t, '/ext/v1/rates', body, { 'Idempotency-Key': 'cross-1' });
      expectError(r, 422, 'idempotency_key_reused');
    }
    // /v1 still replays its own answer.
    const replay = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'cross-1' });
    expect(replay.text).toBe(v1First.text);
    const extFirst = await postExt(t, '/ext/v1/rates', SHIPMENT, { 'Idempotency-Key': 'cross-2' });
    expect(extFirst.status).toBe(200);
    const v1After = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'cross-2' });
    expectError(v1After, 422, 'idempotency_key_reused');
    expect(ledgerCount(t)).toBe(ledger + 2);
  });
});

const POINTS_QUERY = {
  carrier: 'cdek',
  to: SHIPMENT.to,
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }],
};
