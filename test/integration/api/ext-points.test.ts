// POST /ext/v1/points (#21): a carrier's pickup points that take the parcel, beside /v1 on the same listener.
// Authenticated and rate limited like every /v1 call, validated like /v1/rates, and never charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PointsResponse } from '../../../core/contract/points';
import type { SqliteStore } from '../../../core/store';
import {
  FIRST_TWO_CARRIERS,
  rawRequest,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';

const QUERY = {
  carrier: 'cdek',
  to: SHIPMENT.to,
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10, count: 2 }],
  cod_kopecks: 150_000,
  card: true,
  limit: 10,
};

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
});
afterAll(() => t.close());

function points(
  body: unknown,
  headers: Record<string, string> = {},
  key: string | null = t.key,
): Promise<HttpResult> {
  return rawRequest(t.port, {
    method: 'POST',
    path: '/ext/v1/points',
    headers: {
      ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      'Content-Type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const ledgerRows = (): number =>
  ((t.service.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM ledger').get() as { n: number }).n;

describe('POST /ext/v1/points', () => {
  it('200 with a PointsResponse, the RateLimit fields, and nothing deducted', async () => {
    const before = (await t.get('/v1/balance')).json.balance as number;
    const ledger = ledgerRows();
    for (let i = 0; i < 3; i++) {
      const r = await points(QUERY);
      expect(r.status, r.text).toBe(200);
      expect(PointsResponse.safeParse(r.json).success, r.text).toBe(true);
      expect(r.headers['ratelimit']).toMatch(/^"account";r=\d+;t=\d+$/);
      expect(r.headers['x-request-id']).toMatch(/^req_/);
      expect(r.headers['cache-control']).toBe('no-store');
      // Points from the simulators are made up, as sandbox prices are: marked the same way.
      expect(r.headers['x-ratedesk-sandbox']).toBe('true');
    }
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
    expect(ledgerRows()).toBe(ledger);
  });

  it('422 for a carrier without a point directory or an unknown one, the reason in unavailable', async () => {
    for (const carrier of ['russian-post', 'no-such-carrier']) {
      const r = await points({ ...QUERY, carrier });
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe('shipment_not_served');
      expect(r.json.unavailable).toEqual([{ carrier, reason: expect.any(String) as string }]);
    }
  });

  it('401 without a key, with WWW-Authenticate', async () => {
    const r = await points(QUERY, {}, null);
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('invalid_api_key');
    expect(r.headers['www-authenticate']).toBe('Bearer realm="ratedesk"');
  });

  it('400 validation_failed with paths, as /v1/rates; 415 and invalid_json too', async () => {
    const bad = await points({
      ...QUERY,
      carrier: '',
      places: [{ weight_grams: 0, length_cm: 30, width_cm: 20, height_cm: 10 }],
      limit: 0,
      radius_km: 5,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('validation_failed');
    expect(bad.json.error.message).toBe('Request body does not match the Shipment schema.');
    const paths = (bad.json.error.details as Array<{ path: string }>).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['carrier', 'places[0].weight_grams', 'limit', 'radius_km']),
    );
    const missing = await points({ carrier: 'cdek' });
    expect((missing.json.error.details as Array<{ path: string }>).map((d) => d.path)).toEqual(
      expect.arrayContaining(['to', 'places']),
    );
    expect((await points(QUERY, { 'Content-Type': 'text/plain' })).json.error.code).toBe(
      'unsupported_media_type',
    );
    expect((await points('{')).json.error.code).toBe('invalid_json');
  });

  it('an Idempotency-Key is neither needed nor checked: a repeat is asked again, free', async () => {
    const a = await points(QUERY, { 'Idempotency-Key': 'p-1' });
    const b = await points(QUERY, { 'Idempotency-Key': 'p-1' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  });
});
