// Suite 2 of #8, the wire half (the browser half is test/e2e/browser-attack.spec.ts): DNS rebinding and
// cross-site requests against the loopback listener (research/reliability.md §4, L-T1 … L-T6). Hostile Host
// values and absolute-form targets → 403 before authentication (a valid key does not help, a wrong key is
// never even looked at); a foreign Origin or Sec-Fetch-Site → 403; no CORS header on any answer; the listener
// is reachable on loopback only.
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAnswer } from '../helpers/raw-http';
import { startTestService, type TestService } from '../helpers/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.close();
});

/** Host values an attacker's DNS name, a confused proxy or a lax IP parser would produce. PORT = ours. */
const HOSTILE_HOSTS = [
  'evil.test',
  'evil.test:PORT',
  'attacker.example:PORT',
  'rebind.attacker.test:PORT',
  '127.0.0.1.nip.io:PORT',
  'localtest.me:PORT',
  'localhost6:PORT',
  'localhost6.localdomain6:PORT',
  'localhost.:PORT',
  'localhost.localdomain:PORT',
  'sub.localhost:PORT',
  '0x7f.0.0.1:PORT',
  '0x7f000001:PORT',
  '0177.0.0.1:PORT',
  '017700000001:PORT',
  '2130706433:PORT',
  '127.1:PORT',
  '127.0.1:PORT',
  '127.0.0.2:PORT',
  '127.000.000.001:PORT',
  '0.0.0.0:PORT',
  '0:PORT',
  '[::ffff:127.0.0.1]:PORT',
  '[::ffff:7f00:1]:PORT',
  '[0:0:0:0:0:0:0:1]:PORT',
  '[::]:PORT',
  '::1:PORT',
  '[::1]',
  '127.0.0.1',
  'localhost',
  '127.0.0.1:1',
  'localhost:80',
  '127.0.0.1:PORT0',
  '127.0.0.1:0PORT',
  '127.0.0.1:+PORT',
  '127.0.0.1 :PORT',
  '127.0.0.1:PORT,evil.test',
  '127.0.0.1:PORT.',
  'user@127.0.0.1:PORT',
  '127.0.0.1:PORT@evil.test',
  '127.0.0.1:PORT/evil',
  '127.0.0.1%2ePORT',
  'xn--lcalhost-9za:PORT',
  'ⓛocalhost:PORT',
  '',
  '192.168.1.1:PORT',
];

const at = (host: string): string => host.replaceAll('PORT', String(t.port));

async function get(target: string, headers: Record<string, string | string[]>) {
  const lines = [`GET ${target} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return firstAnswer(t.port, `${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
}

describe(`${HOSTILE_HOSTS.length} hostile Host values`, () => {
  it('are at least 40', () => {
    expect(HOSTILE_HOSTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE_HOSTS)('Host: %s → 403 invalid_host, with a valid key or a wrong one', async (host) => {
    for (const key of [t.key, 'rdk_wrongwrongwrongwrongwrongwrongwr000000']) {
      const r = await get('/v1/balance', { Host: at(host), Authorization: `Bearer ${key}` });
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('invalid_host');
      // Refused before authentication and before the account's rate limiter.
      expect(r.headers['ratelimit']).toBeUndefined();
      expect(r.headers['www-authenticate']).toBeUndefined();
    }
  });

  it.each(HOSTILE_HOSTS.filter((h) => /^[\x21-\x7e]+$/.test(h) && !/[/@,]/.test(h)))(
    'absolute-form http://%s/v1/balance with a good Host header → 403 invalid_host',
    async (host) => {
      const r = await get(`http://${at(host)}/v1/balance`, {
        Host: `127.0.0.1:${t.port}`,
        Authorization: `Bearer ${t.key}`,
      });
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('invalid_host');
    },
  );

  it('two Host headers, even both good → 403', async () => {
    const good = `127.0.0.1:${t.port}`;
    const r = await get('/v1/balance', { Host: [good, good], Authorization: `Bearer ${t.key}` });
    expect(r.status).toBe(403);
  });

  it('the three allowed forms do reach authentication', async () => {
    for (const host of [
      `127.0.0.1:${t.port}`,
      `localhost:${t.port}`,
      `[::1]:${t.port}`,
      `LocalHost:${t.port}`,
    ]) {
      const r = await get('/v1/balance', { Host: host, Authorization: `Bearer ${t.key}` });
      expect(r.status, host).toBe(200);
    }
  });
});

describe('cross-site requests', () => {
  const origins = [
    'https://evil.test',
    'http://127.0.0.1:1',
    `http://127.0.0.1:${'PORT'}`,
    'http://localhost',
    'null',
    'file://',
    'app://ratedesk',
  ];
  it.each(origins)('Origin: %s → 403 origin_not_allowed even with a valid key and Host', async (origin) => {
    const r = await get('/v1/balance', {
      Host: `127.0.0.1:${t.port}`,
      Authorization: `Bearer ${t.key}`,
      Origin: at(origin),
    });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('origin_not_allowed');
  });

  it.each(['cross-site', 'same-site', 'CROSS-SITE'])('Sec-Fetch-Site: %s → 403', async (site) => {
    const r = await get('/v1/balance', {
      Host: `127.0.0.1:${t.port}`,
      Authorization: `Bearer ${t.key}`,
      'Sec-Fetch-Site': site,
    });
    expect(r.status).toBe(403);
  });

  it('100 preflights with assorted Origins and requested headers: not one Access-Control-* header', async () => {
    for (let i = 0; i < 100; i++) {
      const r = await firstAnswer(
        t.port,
        `OPTIONS ${i % 2 ? '/v1/rates' : '/v1/balance'} HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\n` +
          `Origin: ${at(origins[i % origins.length]!)}\r\nAccess-Control-Request-Method: POST\r\n` +
          `Access-Control-Request-Headers: authorization, content-type\r\n` +
          (i % 3 ? 'Access-Control-Request-Private-Network: true\r\n' : '') +
          'Connection: close\r\n\r\n',
      );
      expect(r.status).toBe(403);
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('binding', () => {
  it('the listener is bound to 127.0.0.1 only', () => {
    const address = t.service.listener!.server.address();
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1');
  });

  const lan = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  it.skipIf(lan === undefined)(
    lan === undefined
      ? "a connection to this machine's LAN address is refused (skipped: this machine has no non-loopback IPv4 address to try)"
      : `a connection to this machine's LAN address (${lan}) is refused`,
    async () => {
      let accepted = 0;
      for (let i = 0; i < 20; i++) {
        accepted += await new Promise<number>((resolve) => {
          const s = connect(t.port, lan!);
          s.once('connect', () => {
            s.destroy();
            resolve(1);
          });
          s.once('error', () => resolve(0));
        });
      }
      expect(accepted).toBe(0);
    },
  );
});
