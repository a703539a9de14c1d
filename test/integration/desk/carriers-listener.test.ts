// Carriers (status, enable, base URL, masked credentials) and the listener switch/port/host.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_TWO_CARRIERS, rawRequest } from '../../helpers/service';
import { CARRIER_CODES } from '../../../core/carriers/types';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

let desk: DeskHarness;
beforeAll(async () => {
  desk = await startDesk(FIRST_TWO_CARRIERS);
});
afterAll(() => desk.close());

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const closeServer = (s: Server) => new Promise<void>((r) => s.close(() => r()));
async function freePort(): Promise<number> {
  const s = await listen();
  const port = (s.address() as { port: number }).port;
  await closeServer(s);
  return port;
}

describe('carriers', () => {
  it('lists every carrier with health, base URL and credentials only where needed', async () => {
    const list = await desk.ok('carriers:list');
    // Every built-in carrier, switched off ones too (FIRST_TWO_CARRIERS leaves six of them off).
    expect(list.map((c) => [c.code, c.enabled])).toEqual(
      CARRIER_CODES.map((c) => [c, c === 'cdek' || c === 'russian-post']),
    );
    const cdek = list[0]!;
    expect(cdek).toMatchObject({
      name: 'СДЭК',
      name_en: 'CDEK',
      enabled: true,
      status: 'unknown',
      base_url: 'https://api.cdek.ru/v2',
      default_base_url: 'https://api.cdek.ru/v2',
      credentials: {
        client_id: '',
        client_secret_masked: '',
        configured: false,
        id_field: 'client_id',
        secret_field: 'client_secret',
      },
    });
    expect(list[1]!.credentials).toBeNull();
    expect((await desk.fail('carriers:list', 'all')).code).toBe('invalid');
  });

  it('pushes carriers:status when a carrier first answers', async () => {
    await desk.ok('quote:run', { quoteKey: 'k', shipment: SHIPMENT });
    const status = desk.eventsOf('carriers:status');
    expect(status).toContainEqual({ code: 'cdek', status: 'available', last_error: null });
    expect(status).toContainEqual({ code: 'russian-post', status: 'available', last_error: null });
    const cdek = (await desk.ok('carriers:list'))[0]!;
    expect(cdek.status).toBe('available');
    expect(cdek.last_success_at).not.toBeNull();
  });

  it('stores credentials but only ever returns the secret masked', async () => {
    const secret = 'Sup3r-Secret-Passw0rd';
    const cdek = await desk.ok('carriers:update', {
      code: 'cdek',
      client_id: 'acme-shop',
      client_secret: secret,
    });
    expect(cdek.credentials).toEqual({
      client_id: 'acme-shop',
      client_secret_masked: '••••w0rd',
      configured: true,
      id_field: 'client_id',
      secret_field: 'client_secret',
    });
    expect(JSON.stringify(cdek)).not.toContain(secret);
    expect(JSON.stringify(await desk.ok('carriers:list'))).not.toContain(secret);
    expect(JSON.stringify(await desk.ok('settings:get'))).not.toContain(secret);
    // It is stored for real (the live adapter reads it), just never shown.
    expect(desk.service.settings.get('carriers.cdek.client_secret')).toBe(secret);
    const cleared = await desk.ok('carriers:update', { code: 'cdek', client_secret: '' });
    expect(cleared.credentials).toEqual({
      client_id: 'acme-shop',
      client_secret_masked: '',
      configured: false,
      id_field: 'client_id',
      secret_field: 'client_secret',
    });
  });

  it('switches a carrier off and back, all-or-nothing with a bad URL', async () => {
    const off = await desk.ok('carriers:update', { code: 'russian-post', enabled: false });
    expect(off.enabled).toBe(false);
    const all = await desk.ok('quote:run', { quoteKey: 'k2', shipment: SHIPMENT });
    expect(all.rates.map((r) => r.carrier)).not.toContain('russian-post');
    const asked = await desk.ok('quote:run', {
      quoteKey: 'k3',
      shipment: { ...SHIPMENT, carriers: ['cdek', 'russian-post'] },
    });
    expect(asked.failures).toEqual([{ carrier: 'russian-post', kind: 'disabled' }]);

    const bad = await desk.fail('carriers:update', {
      code: 'russian-post',
      enabled: true,
      base_url: 'ftp://x',
    });
    expect(bad.code).toBe('invalid');
    expect((await desk.ok('carriers:list'))[1]!.enabled).toBe(false);

    const on = await desk.ok('carriers:update', {
      code: 'russian-post',
      enabled: true,
      base_url: 'http://127.0.0.1:9/x',
    });
    expect(on).toMatchObject({ enabled: true, base_url: 'http://127.0.0.1:9/x' });
    expect((await desk.ok('carriers:update', { code: 'russian-post', base_url: '' })).base_url).toBe(
      on.default_base_url,
    );
  });

  it('refuses unknown carriers and credentials for a carrier that has none', async () => {
    expect((await desk.fail('carriers:update', { code: 'dhl', enabled: true })).code).toBe('not_found');
    expect((await desk.fail('carriers:update', { code: 'russian-post', client_id: 'x' })).code).toBe(
      'invalid',
    );
    expect((await desk.fail('carriers:update', { code: 'cdek', extra: 1 })).code).toBe('invalid');
  });
});

describe('listener', () => {
  it('reports its status', async () => {
    const s = await desk.ok('listener:status');
    expect(s).toEqual({
      enabled: true,
      host: '127.0.0.1',
      port: 0,
      running: true,
      url: `http://127.0.0.1:${desk.port()}`,
    });
    expect((await desk.fail('listener:status', { x: 1 })).code).toBe('invalid');
  });

  it('moves to another port: the new one answers, the old one is closed', async () => {
    const oldPort = desk.port();
    const port = await freePort();
    const s = await desk.ok('listener:update', { port });
    expect(s).toEqual({
      enabled: true,
      host: '127.0.0.1',
      port,
      running: true,
      url: `http://127.0.0.1:${port}`,
    });
    expect((await rawRequest(port, { path: '/v1/openapi.json' })).status).toBeLessThan(500);
    await expect(rawRequest(oldPort, { path: '/v1/openapi.json' })).rejects.toThrow();
    expect((await desk.ok('app:info')).listenerUrl).toBe(`http://127.0.0.1:${port}`);
  });

  it('keeps the working port when the new one is taken', async () => {
    const current = desk.port();
    const blocker = await listen();
    const taken = (blocker.address() as { port: number }).port;
    try {
      const e = await desk.fail('listener:update', { port: taken });
      expect(e).toEqual({
        code: 'conflict',
        message: `Port ${taken} is already in use by another program. Choose another port.`,
      });
      expect(await desk.ok('listener:status')).toMatchObject({ port: current, running: true });
      expect(desk.port()).toBe(current);
    } finally {
      await closeServer(blocker);
    }
  });

  it('switches off and on; refuses a network-facing host', async () => {
    expect(await desk.ok('listener:update', { enabled: false })).toMatchObject({
      enabled: false,
      running: false,
      url: null,
    });
    expect((await desk.ok('app:info')).listenerUrl).toBeNull();
    expect(await desk.ok('listener:update', { enabled: true })).toMatchObject({
      enabled: true,
      running: true,
    });
    const e = await desk.fail('listener:update', { host: '0.0.0.0' });
    expect(e.code).toBe('invalid');
    expect(e.message).toContain('this computer only');
    expect((await desk.fail('listener:update', { port: 70_000 })).code).toBe('invalid');
    expect(desk.service.settings.get('listener.host')).toBe('127.0.0.1');
  });
});
