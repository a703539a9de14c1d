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
