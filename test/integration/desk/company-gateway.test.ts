// Company desks over the real transport (#20): a company server on PostgreSQL with the desk gateway on its
// TLS listener, and two desks (real desk services, their own data folders) whose calls go through the
// router exactly as Electron's window's do. Enrolment, roles refused at the server, revocation, shared
// history with its author, events to every desk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import {
  startCompanyServer,
  startTestDesk,
  type CompanyServer,
  type TestDesk,
} from '../../helpers/company-desk';
import { movableClock, SHIPMENT } from '../../helpers/service';
import { httpsRawRequest } from '../../helpers/tls';

let databaseUrl: string;
let server: CompanyServer;
const desks: TestDesk[] = [];
const clock = movableClock();

async function desk(): Promise<TestDesk> {
  const d = await startTestDesk();
  desks.push(d);
  return d;
}

beforeEach(async () => {
  databaseUrl = await createTestDatabase('desk');
  server = await startCompanyServer({ databaseUrl, clock });
});

afterEach(async () => {
  for (const d of desks.splice(0)) await d.close();
  await server.close();
  await dropTestDatabase(databaseUrl);
});

describe('enrolment', () => {
  it('trades a code for a device once; the same code is refused the second time', async () => {
    const code = await server.userWithCode('anna', 'clerk');
    const a = await desk();
    await a.join(server, code, 'Склад 1');
    const status = await a.call('company:status');
    expect(status).toMatchObject({ mode: 'company', user: 'anna', role: 'clerk', connection: 'online' });
    expect(await server.call('devices:list')).toEqual([
      expect.objectContaining({ user: 'anna', name: 'Склад 1' }),
    ]);

    const b = await desk();
    const again = await b.dispatch('company:join', {
      url: server.url,
      code,
      device_name: 'Склад 2',
      fingerprint: server.fingerprint,
    });
    expect(again).toEqual({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/already used/) },
    });
    expect((await b.call('company:status')).mode).toBe('local');
  });

  it('refuses an expired code', async () => {
    const code = await server.userWithCode('boris', 'clerk');
    clock.advance(16 * 60_000);
    const a = await desk();
    const r = await a.dispatch('company:join', {
      url: server.url,
      code,
      device_name: 'D',
      fingerprint: server.fingerprint,
    });
    expect(r).toEqual({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/expired/) } });
  });

  it('slows down guessing: the 11th wrong code in a minute is 429 before it is tried', async () => {
    const tls = { ca: server.cert.cert, servername: 'localhost' };
    const post = (code: string) =>
      httpsRawRequest(server.port, tls, {
        method: 'POST',
        path: '/desk/v1/enrol',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code, device_name: 'x' }),
      });
    for (let i = 0; i < 10; i++) expect((await post('AAAA-BBBB-CCCC')).status).toBe(403);
    const good = await server.userWithCode('vera', 'clerk');
    const braked = await post(good);
    expect(braked.status).toBe(429);
    expect(Number(braked.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('roles and devices', () => {
  it('a clerk is refused an admin operation by the server itself', async () => {
    await server.call('accounts:create', { name: 'shop', balance: 10 });
    const a = await desk();
    await a.join(server, await server.userWithCode('clerk1', 'clerk'));
    const r = await a.dispatch('accounts:topup', { account: 'shop', requests: 5 });
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // The server's data did not change; the desk's own local service (which has no role) was never asked.
    expect((await server.call('accounts:list')).find((x) => x.name === 'shop')!.balance).toBe(10);
    // An admin's desk may.
    const b = await desk();
    await b.join(server, await server.userWithCode('admin1', 'admin'));
    expect((await b.call('accounts:topup', { account: 'shop', requests: 5 })).balance).toBe(15);
  });

  it('a revoked device is refused on its next call, and the desk says so', async () => {
    const a = await desk();
    await a.join(server, await server.userWithCode('dina', 'clerk'));
    expect((await a.dispatch('accounts:list')).ok).toBe(true);
    const [device] = await server.call('devices:list');
    await server.call('devices:revoke', { id: device!.id });
    const r = await a.dispatch('accounts:list');
    expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await a.call('company:status')).toMatchObject({ mode: 'company', connection: 'refused' });
    // Refused stays refused: the next call is answered without asking the server.
    expect(await a.dispatch('history:search', {})).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });
});

describe('shared data and events', () => {
  it("a quote from desk A is in desk B's history with its author", async () => {
    const a = await desk();
    const b = await desk();
    await a.join(server, await server.userWithCode('anna', 'clerk'), 'A');
    await b.join(server, await server.userWithCode('boris', 'clerk'), 'B');
    const quote = await a.call('quote:run', { quoteKey: 'q-a-1', shipment: SHIPMENT });
    expect(quote.rates.length).toBeGreaterThan(0);
    // Progress of A's quote reached A, and only A.
    expect(a.events.some((e) => e.event === 'quote:progress')).toBe(true);
    expect(b.events.some((e) => e.event === 'quote:progress')).toBe(false);
    const rows = await b.call('history:search', {});
    expect(rows).toEqual([expect.objectContaining({ author: 'anna', from_city: SHIPMENT.from.city })]);
    expect(await b.call('history:search', { author: 'boris' })).toEqual([]);
    // Nothing of it is in either desk's local data.
    expect(await a.service.store.quotes.search('')).toEqual([]);
  });

  it('balance changed and low balance reach both desks', async () => {
    await server.call('accounts:create', { name: 'shop', balance: 100 });
    await server.call('accounts:set-threshold', { account: 'shop', threshold: '100' });
    const { secret } = await server.call('keys:create', { account: 'shop', name: 'site' });
    const a = await desk();
    const b = await desk();
    await a.join(server, await server.userWithCode('anna', 'clerk'), 'A');
    await b.join(server, await server.userWithCode('boris', 'admin'), 'B');

    await b.call('accounts:topup', { account: 'shop', requests: 1 });
    const changed = (e: { event: string; payload: unknown }) =>
      e.event === 'balance:changed' && (e.payload as { balance: number }).balance === 101;
    await a.waitFor(changed);
    await b.waitFor(changed);

    // Two /v1 charges take it from 101 to 99, below the threshold of 100.
    const tls = { ca: server.cert.cert, servername: 'localhost' };
    for (let i = 0; i < 2; i++) {
      const r = await httpsRawRequest(server.port, tls, {
        method: 'POST',
        path: '/v1/rates',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(SHIPMENT),
      });
      expect(r.status).toBe(200);
    }
    const low = (e: { event: string }) => e.event === 'balance:low';
    expect(await a.waitFor(low)).toMatchObject({ account: 'shop', threshold: 100 });
    expect(await b.waitFor(low)).toMatchObject({ account: 'shop', threshold: 100 });
  });
});

describe('connection', () => {
  const connection = (c: string) => (e: { event: string; payload: unknown }) =>
    e.event === 'company:status' && (e.payload as { connection: string }).connection === c;

  it('fails at once with offline while the server is away (never from local data), and reconnects by itself', async () => {
    const a = await desk();
    await a.join(server, await server.userWithCode('anna', 'admin'));
    // Something in the desk's own local data that the server does not have.
    await a.service.desk.dispatch('accounts:create', { name: 'local-only', balance: 5 });
    a.events.length = 0;
    await server.stop();
    await a.waitFor(connection('offline'));
    const started = performance.now();
    const r = await a.dispatch('accounts:list');
    expect(r).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(performance.now() - started).toBeLessThan(1_000);
    await server.start();
    await a.waitFor(connection('online'));
    const accounts = await a.call('accounts:list');
    expect(accounts.map((x) => x.name)).not.toContain('local-only');
  });

  it("while the server is away, answers only the desk's own settings and facts (its language, its theme)", async () => {
    const a = await desk();
    await a.join(server, await server.userWithCode('anna', 'clerk'));
    await a.call('settings:set', { name: 'ui.language', value: 'en' });
    await a.call('settings:set', { name: 'ui.theme', value: 'dark' });
    const sandbox = server.service.sandbox();
    expect((await a.call('app:info')).sandbox).toBe(sandbox);
    await server.stop();
    await a.waitFor(connection('offline'));
    const settings = await a.call('settings:get');
    expect(settings.find((s) => s.name === 'ui.language')?.value).toBe('en');
    // Nothing of the server's is answered from the desk's own data folder.
    expect(settings.filter((s) => !s.name.startsWith('ui.') && !s.name.startsWith('company.'))).toEqual([]);
    const info = await a.call('app:info');
    expect(info).toMatchObject({ language: 'en', theme: 'dark', sandbox });
    expect((await a.dispatch('accounts:list')).ok).toBe(false);
  });

  it('leaving returns to the local data untouched', async () => {
    const a = await desk();
    await a.call('accounts:create', { name: 'mine', balance: 7 });
    await a.join(server, await server.userWithCode('anna', 'admin'));
    expect((await a.call('accounts:list')).map((x) => x.name)).not.toContain('mine');
    expect(await a.call('company:leave')).toMatchObject({ mode: 'local', connection: 'local' });
    expect((await a.call('accounts:list')).find((x) => x.name === 'mine')?.balance).toBe(7);
    expect(await a.service.store.settings.get('company.token')).toBeUndefined();
    expect(await a.service.store.settings.get('company.url')).toBeUndefined();
  });

  it('keeps ui.* settings on the desk and sends the rest to the server', async () => {
    const a = await desk();
    await a.join(server, await server.userWithCode('root', 'admin'));
    await a.call('settings:set', { name: 'ui.language', value: 'en' });
    await a.call('settings:set', { name: 'rating.deadline_ms', value: '9000' });
    expect(await a.service.store.settings.get('ui.language')).toBe('en');
    expect(await a.service.store.settings.get('rating.deadline_ms')).toBeUndefined();
    expect(await server.service.store.settings.get('rating.deadline_ms')).toBe('9000');
    expect(await server.service.store.settings.get('ui.language')).toBeUndefined();
    const all = await a.call('settings:get');
    expect(all.find((x) => x.name === 'ui.language')?.value).toBe('en');
    expect(all.find((x) => x.name === 'rating.deadline_ms')?.value).toBe('9000');
    expect((await a.call('app:info')).language).toBe('en');
  });
});
