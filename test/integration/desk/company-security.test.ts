// The security side of company desks (#20): the pinned certificate is checked before a byte of a request
// leaves the desk (an impostor never sees the token), the device token is kept through the secret store and
// written to no log, and the server validates every operation's input exactly as the desk's IPC does.
import { once } from 'node:events';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecretStore } from '../../../core/settings/secrets';
import { openDataFolder } from '../../../core/store/data-folder';
import type { Logger } from '../../../core/util/logger';
import {
  startCompanyServer,
  startTestDesk,
  type CompanyServer,
  type TestDesk,
} from '../../helpers/company-desk';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { SHIPMENT } from '../../helpers/service';
import { makeCertificate, httpsRawRequest } from '../../helpers/tls';

let databaseUrl: string;
let server: CompanyServer;
const desks: TestDesk[] = [];
const lines: string[] = [];

/** Every line either side logs, as it would be written. */
function capture(side: string): Logger {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${side} ${level} ${message} ${fields ? JSON.stringify(fields) : ''}`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

async function desk(options: Parameters<typeof startTestDesk>[0] = {}): Promise<TestDesk> {
  const d = await startTestDesk({ logger: capture('desk'), ...options });
  desks.push(d);
  return d;
}

beforeEach(async () => {
  lines.length = 0;
  databaseUrl = await createTestDatabase('desksec');
  server = await startCompanyServer({ databaseUrl, logger: capture('server') });
});

afterEach(async () => {
  for (const d of desks.splice(0)) await d.close();
  await server.close();
  await dropTestDatabase(databaseUrl);
});

describe('the pinned certificate', () => {
  it('refuses to join a server whose certificate is not the confirmed one; the code is not spent', async () => {
    const code = await server.userWithCode('anna', 'clerk');
    const other = makeCertificate(['localhost']);
    try {
      const { X509Certificate } = await import('node:crypto');
      const wrong = new X509Certificate(other.cert).fingerprint256;
      const a = await desk();
      const r = await a.dispatch('company:join', {
        url: server.url,
        code,
        device_name: 'A',
        fingerprint: wrong,
      });
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'forbidden', message: expect.stringMatching(/certificate/) },
      });
      expect(await server.call('devices:list')).toEqual([]);
      // The code still works with the right fingerprint: nothing reached the server.
      await a.join(server, code);
    } finally {
      other.remove();
    }
  });

  it('an impostor with another certificate on the server address never receives a request, let alone the token', async () => {
    const a = await desk();
    await a.join(server, await server.userWithCode('anna', 'clerk'));
    const port = server.port;
    await server.stop();

    const other = makeCertificate(['localhost'], ['127.0.0.1']);
    const received: Buffer[] = [];
    let connections = 0;
    // What it decrypts is what the desk would have sent it: nothing may arrive.
    const impostor: TlsServer = createTlsServer({ cert: other.cert, key: other.key }, (socket) => {
      socket.on('data', (d: Buffer) => received.push(d));
      socket.on('error', () => {});
    });
    impostor.on('connection', () => connections++);
    impostor.on('tlsClientError', () => {});
    impostor.listen(port, '127.0.0.1');
    await once(impostor, 'listening');
    try {
      // The desk's event stream reconnects to the impostor on its own and gives up: refused, not offline.
      await a.waitFor(
        (e) => e.event === 'company:status' && (e.payload as { connection: string }).connection === 'refused',
      );
      const r = await a.dispatch('history:search', {});
      expect(r.ok).toBe(false);
      expect(connections).toBeGreaterThan(0);
      expect(Buffer.concat(received).length).toBe(0);
      expect((await a.call('company:status')).reason).toMatch(/not the one this desk pinned/);
    } finally {
      impostor.close();
      other.remove();
    }
  });
});

describe('the device token', () => {
  it('is kept through the secret store, read back on the next start, and written to no log', async () => {
    const sealed: Array<{ name: string; plain: string }> = [];
    // A keychain stand-in: seals under the desk keychain's own prefix, so a store without it cannot read it.
    const keychain: SecretStore = {
      encrypting: true,
      seal(plain, name) {
        sealed.push({ name, plain });
        return `enc:${Buffer.from(plain).reverse().toString('base64')}`;
      },
      open: (stored) =>
        stored.startsWith('enc:') ? Buffer.from(stored.slice(4), 'base64').reverse().toString() : stored,
    };
    const code = await server.userWithCode('anna', 'clerk');
    const a = await desk({ secrets: keychain });
    await a.join(server, code);
    await a.call('quote:run', { quoteKey: 'k1', shipment: SHIPMENT });
    const token = sealed.find((s) => s.name === 'company.token')?.plain;
    expect(token).toMatch(/^rdd_[0-9A-Za-z]{43}$/);

    // At rest: sealed, not plain (a store without the keychain reads it as not configured).
    await a.stop();
    const raw = openDataFolder(a.dataDir, {
      open: { secrets: { encrypting: false, seal: (p) => p, open: (s) => s } },
    });
    const stored = await raw.settings.get('company.token');
    await raw.close();
    expect(stored).toMatch(/^enc:/);
    expect(stored).not.toContain(token);

    // The next start reads it back through the secret store and is online again.
    const again = await desk({ secrets: keychain, dataDir: a.dataDir });
    await again.waitFor(
      (e) => e.event === 'company:status' && (e.payload as { connection: string }).connection === 'online',
    );
    expect((await again.dispatch('history:search', {})).ok).toBe(true);

    // settings:get shows it masked.
    const view = (await again.call('settings:get')).find((s) => s.name === 'company.token');
    expect(view).toMatchObject({ secret: true });
    expect(view!.value).not.toContain(token!.slice(4, -4));

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(text).toContain('joined a company server');
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/rdd_[0-9A-Za-z]{8}/);
    expect(text).not.toContain(code);
    expect(text).not.toContain(code.replace(/-/g, ''));
  });
});

describe('input validation', () => {
  // The same bad input, sent by a desk in local mode (IPC's path) and by a desk in company mode (the
  // gateway's), gets the same answer: the server runs the same dispatch and the same schemas.
  const BAD: Array<[string, unknown]> = [
    ['quote:run', {}],
    ['quote:run', { quoteKey: 'k', shipment: { ...SHIPMENT, parcel: { weight_grams: -1 } } }],
    ['quote:run', { quoteKey: 'k', shipment: SHIPMENT, surprise: 1 }],
    ['history:search', { limit: 0 }],
    ['history:get', { id: 'seven' }],
    ['accounts:create', { name: '' }],
    ['keys:create', { account: 'default' }],
    ['warehouses:create', { name: 'Склад' }],
    ['accounts:list', { extra: true }],
    ['users:add', { name: 'a b', role: 'boss' }],
    ['no-such:channel', {}],
  ];

  it('answers the same for the same bad input over IPC and over the gateway', async () => {
    const local = await desk();
    const company = await desk();
    await company.join(server, await server.userWithCode('root', 'admin'));
    for (const [channel, input] of BAD) {
      const overIpc = await local.dispatch(channel, input);
      const overGateway = await company.dispatch(channel, input);
      expect(overIpc.ok, channel).toBe(false);
      expect(overGateway, `${channel} ${JSON.stringify(input)}`).toEqual(overIpc);
    }
  });

  it('answers a call without a valid token with 401 and the unauthorized envelope', async () => {
    const tls = { ca: server.cert.cert, servername: 'localhost' };
    for (const authorization of [undefined, 'Bearer nope', `Bearer rdd_${'a'.repeat(43)}`]) {
      const r = await httpsRawRequest(server.port, tls, {
        method: 'POST',
        path: '/desk/v1/ops/accounts:list',
        headers: {
          'Content-Type': 'application/json',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: 'null',
      });
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    const hello = await httpsRawRequest(server.port, tls, { path: '/desk/v1/hello' });
    expect(hello.json).toEqual({ server: 'ratedesk', version: expect.any(String) });
  });
});
