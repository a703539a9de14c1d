// #8 defects 3, 5 and 8: how the request target is read.
// 3. An absolute-form target's authority replaces Host (RFC 9112 §3.2.2) and is checked like Host.
// 5. A secret in the query string is refused (401) whatever the parameter is called, and never echoed.
// 8. Only the exact documented paths route; dot segments, encoded dots and backslashes are 404, not charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../helpers/raw-http';
import { rawRequest, SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

const balance = async (): Promise<number> => (await t.get('/v1/balance')).json.balance;

function request(method: string, target: string, extra = ''): string {
  const body = method === 'POST' ? JSON.stringify(SHIPMENT) : '';
  return (
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAuthorization: Bearer ${t.key}\r\n` +
    (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
    `${extra}Connection: close\r\n\r\n${body}`
  );
}

describe('absolute-form targets', () => {
  it.each([
    'http://evil.com/v1/balance',
    'http://evil.com:PORT/v1/balance',
    'http://127.0.0.1.nip.io:PORT/v1/balance',
    'http://localhost6:PORT/v1/balance',
    'http://127.0.0.1:1/v1/balance',
    'http://user@127.0.0.1:PORT/v1/balance',
    'https://127.0.0.1:PORT/v1/balance',
    'ftp://127.0.0.1:PORT/v1/balance',
    'http://[::ffff:127.0.0.1]:PORT/v1/balance',
  ])('%s with a good Host header → 403 invalid_host before authentication', async (target) => {
    const r = await rawExchange(t.port, request('GET', target.replace('PORT', String(t.port))));
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('invalid_host');
  });

  it('a foreign authority cannot be charged either', async () => {
    const before = await balance();
    const r = await rawExchange(t.port, request('POST', 'http://evil.com/v1/rates'));
    expect(r.status).toBe(403);
    expect(await balance()).toBe(before);
  });

  it('an allowed authority is served like Host (RFC 9112: servers must accept absolute-form)', async () => {
    for (const authority of [`127.0.0.1:${t.port}`, `LOCALHOST:${t.port}`, `[::1]:${t.port}`]) {
      const r = await rawExchange(t.port, request('GET', `http://${authority}/v1/balance`));
      expect(r.status, authority).toBe(200);
    }
  });
});

describe('a secret in the query string', () => {
  const names = ['apiKey', 'token', 'x', 'q', 'Authorization', 'session_token', 'API-KEY', ''];
  it.each(names)('?%s=<key> → 401 invalid_api_key, the key never echoed', async (name) => {
    const query = name ? `${name}=${t.key}` : t.key;
    const r = await t.get(`/v1/balance?${query}`);
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe('invalid_api_key');
    expect(r.text).not.toContain(t.key);
  });

  it('percent-encoded (once or twice) and in a parameter name too', async () => {
    const once = encodeURIComponent(t.key).replace(/r/, '%72');
    for (const query of [`x=${once}`, `x=${encodeURIComponent(once)}`, `${t.key}=1`, `a=1&b=${t.key}`]) {
      const r = await t.get(`/v1/balance?${query}`);
      expect(r.status, query).toBe(401);
    }
  });

  it('parameters named like a credential are refused whatever their value', async () => {
    for (const query of ['api_key=abc', 'access_token=abc', 'key=abc', 'secret=abc']) {
      expect((await t.get(`/v1/balance?${query}`)).status, query).toBe(401);
    }
  });

  it('a harmless query (cache buster) is ignored', async () => {
    expect((await t.get('/v1/balance?_=1700000000')).status).toBe(200);
  });

  it('on POST /v1/rates nothing is charged', async () => {
    const before = await balance();
    const r = await rawExchange(t.port, request('POST', `/v1/rates?apiKey=${t.key}`));
    expect(r.status).toBe(401);
    expect(await balance()).toBe(before);
  });
});

describe('an imported key (no rdk_ prefix) in the query string (#16 item 7)', () => {
  // Keys issued elsewhere: any 20–200 printable characters, here with the characters a URL treats specially.
  const imported = 'legacy-9f8e7d6c5b4a3928+/=AbC';
  const revoked = 'old.key.0123456789abcdefXYZ';
  const otherAccount = 'shop42_sk_live_00aa11bb22cc33dd';
  beforeAll(async () => {
    const run = (input: object) => t.service.desk.dispatch('keys:import', input);
    expect((await run({ account: 'default', name: 'legacy', secret: imported })).ok).toBe(true);
    expect((await run({ account: 'default', name: 'old', secret: revoked })).ok).toBe(true);
    await t.service.desk.dispatch('accounts:create', { name: 'shop42' });
    expect((await run({ account: 'shop42', name: 'shop', secret: otherAccount })).ok).toBe(true);
    const id = (await t.service.store.keys.list()).find((k) => k.name === 'old')!.id;
    expect((await t.service.desk.dispatch('keys:revoke', { id })).ok).toBe(true);
  });

  const e = encodeURIComponent;
  it.each([
    ['?key=', (k: string) => `key=${e(k)}`],
    ['?api_key=', (k: string) => `api_key=${e(k)}`],
    ['?x=', (k: string) => `x=${e(k)}`],
    ['?x= as sent, unencoded', (k: string) => `x=${k}`],
    ['?x= encoded twice', (k: string) => `x=${e(e(k))}`],
    ['?<key> alone', (k: string) => e(k)],
    ['a name', (k: string) => `${e(k)}=1`],
    ['after a cache buster', (k: string) => `_=1700000000&q=${e(k)}`],
  ])('%s → 401 invalid_api_key with a good Authorization header, never echoed', async (_, query) => {
    for (const k of [imported, revoked, otherAccount]) {
      const r = await t.get(`/v1/balance?${query(k)}`);
      expect(r.status, `${query(k)}`).toBe(401);
      expect(r.json.error.code).toBe('invalid_api_key');
      expect(r.text).not.toContain(k);
      expect(r.text).not.toContain(e(k));
    }
  });

  it('POST /v1/rates with it is refused and not charged', async () => {
    const before = await balance();
    for (const q of [`x=${e(imported)}`, `api_key=${e(imported)}`]) {
      const r = await rawExchange(t.port, request('POST', `/v1/rates?${q}`));
      expect(r.status).toBe(401);
    }
    expect(await balance()).toBe(before);
  });

  it('harmless queries are still served, long ones that are no key included', async () => {
    for (const q of [
      '_=1700000000',
      `_=${e('2025-03-04T05:06:07.000Z')}`,
      'v=abcdefghijklmnopqrstuvwxyz0123456789',
      `x=${e(imported.slice(0, -1))}`,
    ]) {
      expect((await t.get(`/v1/balance?${q}`)).status, q).toBe(200);
    }
  });

  it('a query with more key-shaped pieces than it looks up is refused whole', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `p${i}=${'v'.repeat(20)}${i}`).join('&');
    expect((await t.get(`/v1/balance?${many}`)).status).toBe(401);
  });
});

describe('only exact paths route', () => {
  const odd = [
    '/v1/x/../rates',
    '/./v1/rates',
    '/v1/./rates',
    '/v1/x/%2e%2e/rates',
    '/v1/x/%2E%2E/rates',
    '/v1\\rates',
    '/v1/rates/',
    '//v1/rates',
    '/V1/RATES',
    '/v1/%72ates',
    '/v1/rates;x',
    '/v1/rates%00',
    '/v1/rates#frag',
  ];
  it.each(odd)('POST %s → 404, nothing charged', async (path) => {
    const before = await balance();
    const r = await rawExchange(t.port, request('POST', path));
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('not_found');
    expect(await balance()).toBe(before);
  });

  it.each(['/v1/x/../balance', '/v1//balance', '/v1/balance/', '/v1/balance/.'])(
    'GET %s → 404',
    async (path) => {
      const r = await rawExchange(t.port, request('GET', path));
      expect(r.status).toBe(404);
    },
  );

  it('OPTIONS * and other asterisk or authority forms → 404', async () => {
    const r = await rawExchange(
      t.port,
      `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(r.status).toBe(404);
  });

  it('the documented paths still route, with or without a query', async () => {
    expect((await t.get('/v1/balance')).status).toBe(200);
    expect((await t.get('/v1/carriers?x=1')).status).toBe(200);
    expect((await rawRequest(t.port, { path: '/v1/openapi.json' })).status).toBe(200);
  });
});
