// Every row of design.md's status/code table, over real HTTP against a real service and SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey, listKeys } from '../../../core/operations';
import {
  FIRST_TWO_CARRIERS,
  rawRequest,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../../helpers/service';
import { SANDBOX_TRIGGERS } from '../../../core/carriers/sandbox-triggers';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ settings: FIRST_TWO_CARRIERS });
});
afterAll(async () => {
  await t.close();
});

function expectError(r: HttpResult, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.json.error.code).toBe(code);
  expect(typeof r.json.error.message).toBe('string');
  expect(r.json.error.request_id).toMatch(/^req_[0-9A-Za-z]{20}$/);
  expect(r.headers['x-request-id']).toBe(r.json.error.request_id);
  expect(r.headers['cache-control']).toBe('no-store');
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
}

describe('401', () => {
  it('missing key → invalid_api_key with WWW-Authenticate', async () => {
    const r = await rawRequest(t.port, { path: '/v1/balance' });
    expectError(r, 401, 'invalid_api_key');
    expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="ratedesk"$/);
  });
  it('malformed header, bad checksum, unknown key → invalid_api_key', async () => {
    const broken = t.key.slice(0, -1) + (t.key.endsWith('A') ? 'B' : 'A');
    for (const auth of [
      'Basic abc',
      'Bearer',
      `Bearer ${broken}`,
      'Bearer rdk_short',
      `Bearer ${'x'.repeat(30)}`,
    ]) {
      const r = await rawRequest(t.port, { path: '/v1/balance', headers: { Authorization: auth } });
      expectError(r, 401, 'invalid_api_key');
      expect(r.headers['www-authenticate']).toContain('Bearer');
    }
  });
  it('key in the query string → invalid_api_key even with a good header, and never echoed', async () => {
    const r = await rawRequest(t.port, {
      path: `/v1/balance?api_key=${t.key}`,
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expectError(r, 401, 'invalid_api_key');
    expect(r.text).not.toContain(t.key);
  });
  it('revoked key → api_key_revoked on the very next request', async () => {
    const key = await t.newKey();
    expect((await t.get('/v1/balance', key)).status).toBe(200);
    const id = (await listKeys(t.service.store, { now: () => new Date() })).at(-1)!.id;
    await revokeKey(t.service.store, { now: () => new Date() }, { id });
    const r = await t.get('/v1/balance', key);
    expectError(r, 401, 'api_key_revoked');
    expect(r.headers['www-authenticate']).toContain('invalid_token');
  });
});

describe('403', () => {
  const badHosts = [
    'evil.test',
    `evil.test:PORT`,
    '127.0.0.1.nip.io:PORT',
    'localhost6:PORT',
    'localhost.:PORT',
    '0x7f.0.0.1:PORT',
    '0177.0.0.1:PORT',
    '2130706433:PORT',
    '127.1:PORT',
    '[::ffff:127.0.0.1]:PORT',
    '127.0.0.1',
    'localhost',
    '127.0.0.1:1',
  ];
  it.each(badHosts)('Host %s → invalid_host, before authentication', async (h) => {
    const r = await rawRequest(t.port, {
      path: '/v1/balance',
      headers: { Host: h.replace('PORT', String(t.port)), Authorization: `Bearer ${t.key}` },
      noHost: true,
    });
    expectError(r, 403, 'invalid_host');
  });
  it('the three allowed Host forms pass, case-insensitively', async () => {
    for (const h of ['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]']) {
      const r = await rawRequest(t.port, {
        path: '/v1/balance',
        headers: { Host: `${h}:${t.port}`, Authorization: `Bearer ${t.key}` },
        noHost: true,
      });
      expect(r.status).toBe(200);
    }
  });
  it('a foreign Origin or Sec-Fetch-Site cross-site/same-site → origin_not_allowed', async () => {
    const variants: Array<Record<string, string>> = [
      { Origin: 'https://example.com' },
      { Origin: `http://127.0.0.1:${t.port}` },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of variants) {
      const r = await rawRequest(t.port, {
        path: '/v1/balance',
        headers: { ...headers, Authorization: `Bearer ${t.key}` },
      });
      expectError(r, 403, 'origin_not_allowed');
      expect(Object.keys(r.headers).some((h) => h.startsWith('access-control-'))).toBe(false);
    }
  });
  it("other Sec-Fetch-* headers are fine (Node's fetch sends Sec-Fetch-Mode: cors)", async () => {
    const r = await fetch(`http://127.0.0.1:${t.port}/v1/balance`, {
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(r.status).toBe(200);
    const r2 = await rawRequest(t.port, {
      path: '/v1/balance',
      headers: { 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Site': 'none', Authorization: `Bearer ${t.key}` },
    });
    expect(r2.status).toBe(200);
  });
});

describe('body and schema', () => {
  it('413 payload_too_large over 16 KiB', async () => {
    const big = JSON.stringify({ ...SHIPMENT, pad: 'x'.repeat(17 * 1024) });
    const r = await t.postRates(big);
    expectError(r, 413, 'payload_too_large');
  });
  it('415 unsupported_media_type for text/plain, form, missing type, gzip', async () => {
    const variants: Array<Record<string, string>> = [
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      { 'Content-Type': 'multipart/form-data; boundary=x' },
      { 'Content-Type': 'application/json-patch+json' },
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    ];
    for (const headers of variants) {
      const r = await t.postRates(SHIPMENT, headers);
      expectError(r, 415, 'unsupported_media_type');
    }
  });
  it('400 invalid_json for broken JSON and non-objects', async () => {
    for (const body of ['{', '', '[1,2]', '"x"', 'null', '\uFEFF{}x']) {
      const r = await t.postRates(body);
      expectError(r, 400, 'invalid_json');
    }
  });
  it('400 invalid_json for invalid UTF-8, never replaced by U+FFFD and charged (#8 defect 7)', async () => {
    const before = (await t.get('/v1/balance')).json.balance;
    const good = Buffer.from(JSON.stringify(SHIPMENT), 'utf8');
    const city = good.indexOf(Buffer.from('Москва'));
    for (const bad of [
      Buffer.from([0xff]), // never valid
      Buffer.from([0xc3]), // truncated sequence
      Buffer.from([0xed, 0xa0, 0x80]), // UTF-16 surrogate
      Buffer.from([0xc0, 0xaf]), // overlong '/'
    ]) {
      const body = Buffer.concat([good.subarray(0, city), bad, good.subarray(city)]);
      const r = await t.postRates(body);
      expectError(r, 400, 'invalid_json');
    }
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
  });
  it('400 validation_failed with the JSON path of each problem, unknown properties included', async () => {
    const r = await t.postRates({
      ...SHIPMENT,
      parcel: { ...SHIPMENT.parcel, weight_grams: 0, colour: 'red' },
      to: { ...SHIPMENT.to, postal_code: '12345' },
    });
    expectError(r, 400, 'validation_failed');
    const paths = r.json.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['parcel.colour', 'parcel.weight_grams', 'to.postal_code']);
  });
  it('400 invalid_idempotency_key for a bad or duplicated header', async () => {
    const r = await t.postRates(SHIPMENT, { 'Idempotency-Key': 'k'.repeat(256) });
    expectError(r, 400, 'invalid_idempotency_key');
    const r2 = await rawRequest(t.port, {
      method: 'POST',
      path: '/v1/rates',
      headers: {
        Authorization: `Bearer ${t.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': ['a1', 'a2'],
      },
      body: JSON.stringify(SHIPMENT),
    });
    expectError(r2, 400, 'invalid_idempotency_key');
  });
});

describe('routing', () => {
  it('404 not_found for unknown paths, admin paths included', async () => {
    for (const path of ['/', '/v1', '/v1/keys', '/v1/admin/accounts', '/v2/rates']) {
      expectError(await t.get(path), 404, 'not_found');
    }
  });
  it('405 method_not_allowed with Allow', async () => {
    const r = await rawRequest(t.port, {
      method: 'GET',
      path: '/v1/rates',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expectError(r, 405, 'method_not_allowed');
    expect(r.headers.allow).toBe('POST');
    const r2 = await rawRequest(t.port, { method: 'OPTIONS', path: '/v1/balance', headers: { Origin: 'x' } });
    expect(r2.status).toBe(403);
    const r3 = await rawRequest(t.port, { method: 'DELETE', path: '/v1/balance' });
    expectError(r3, 405, 'method_not_allowed');
    expect(r3.headers.allow).toBe('GET');
  });
  it('GET /v1/openapi.json needs no key but still checks Host', async () => {
    const r = await rawRequest(t.port, { path: '/v1/openapi.json' });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    const bad = await rawRequest(t.port, {
      path: '/v1/openapi.json',
      headers: { Host: 'evil.test' },
      noHost: true,
    });
    expect(bad.status).toBe(403);
  });
});

describe('402, 503 and success', () => {
  it('200 with rates, sandbox header, RateLimit headers and balance_remaining', async () => {
    const before = (await t.get('/v1/balance')).json.balance;
    const r = await t.postRates(SHIPMENT);
    expect(r.status).toBe(200);
    expect(r.headers['x-ratedesk-sandbox']).toBe('true');
    expect(r.headers['ratelimit-policy']).toMatch(/^"account";q=\d+;w=\d+$/);
    expect(r.headers['ratelimit']).toMatch(/^"account";r=\d+;t=\d+$/);
    expect(r.json.request_id).toBe(r.headers['x-request-id']);
    expect(r.json.rates.length).toBeGreaterThan(0);
    expect(new Set(r.json.rates.map((x: { carrier: string }) => x.carrier))).toEqual(
      new Set(['cdek', 'russian-post']),
    );
    expect(r.json.balance_remaining).toBe(before - 1);
    expect((await t.get('/v1/balance')).json.balance).toBe(before - 1);
  });
  it('503 rates_unavailable with unavailable[] and Retry-After when no carrier answers; nothing deducted', async () => {
    const before = (await t.get('/v1/balance')).json.balance;
    const r = await t.postRates({
      ...SHIPMENT,
      to: { city: 'Казань', postal_code: SANDBOX_TRIGGERS.allNoService },
    });
    expectError(r, 503, 'rates_unavailable');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.json.unavailable.map((u: { carrier: string }) => u.carrier).sort()).toEqual([
      'cdek',
      'russian-post',
    ]);
    expect((await t.get('/v1/balance')).json.balance).toBe(before);
  });
  it('unknown carrier codes in the filter are reported, never dropped', async () => {
    const r = await t.postRates({ ...SHIPMENT, carriers: ['cdek', 'dhl'] });
    expect(r.status).toBe(200);
    expect(r.json.unavailable).toEqual([{ carrier: 'dhl', reason: 'unknown carrier' }]);
    expect(r.json.rates.every((x: { carrier: string }) => x.carrier === 'cdek')).toBe(true);
    // #8 changed this on purpose: a request that cannot succeed is a 4xx without Retry-After (it was a 503).
    const only = await t.postRates({ ...SHIPMENT, carriers: ['dhl'] });
    expectError(only, 422, 'no_queryable_carrier');
    expect(only.headers['retry-after']).toBeUndefined();
    expect(only.json.unavailable).toEqual([{ carrier: 'dhl', reason: 'unknown carrier' }]);
  });
  it('402 insufficient_balance at 0; balance never negative', async () => {
    const acct = 'broke';
    const { createAccount } = await import('../../../core/operations');
    await createAccount(t.service.store, { now: () => new Date() }, { name: acct, balance: 1 });
    const key = await t.newKey(acct);
    expect((await t.postRates(SHIPMENT, {}, key)).status).toBe(200);
    const r = await t.postRates(SHIPMENT, {}, key);
    expectError(r, 402, 'insufficient_balance');
    expect((await t.get('/v1/balance', key)).json.balance).toBe(0);
  });
});
