// Accounts, notifications, keys (with real /v1 calls) and settings through the desk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../helpers/service';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

let desk: DeskHarness;
beforeAll(async () => {
  desk = await startDesk();
});
afterAll(() => desk.close());

const postRates = (key: string) =>
  rawRequest(desk.port(), {
    method: 'POST',
    path: '/v1/rates',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(SHIPMENT),
  });

describe('accounts', () => {
  it('lists, creates and refuses a duplicate or a bad name', async () => {
    expect((await desk.ok('accounts:list')).map((a) => a.name)).toEqual(['default']);
    const shop = await desk.ok('accounts:create', { name: 'shop' });
    expect(shop).toMatchObject({ name: 'shop', balance: 100, tier: 'free', threshold: expect.any(String) });
    expect((await desk.fail('accounts:create', { name: 'shop' })).code).toBe('conflict');
    expect((await desk.fail('accounts:create', { name: 'bad name' })).code).toBe('invalid');
    expect((await desk.fail('accounts:list', { all: true })).code).toBe('invalid');
  });

  it('tops up and pushes balance:changed', async () => {
    const before = desk.eventsOf('balance:changed').length;
    const shop = await desk.ok('accounts:topup', { account: 'shop', requests: 1000 });
    expect(shop).toMatchObject({ balance: 1100, tier: 'paid', last_package: 1000 });
    expect(desk.eventsOf('balance:changed').slice(before)).toEqual([
      { account_id: shop.id, account: 'shop', balance: 1100 },
    ]);
    expect((await desk.fail('accounts:topup', { account: 'shop', requests: 0 })).code).toBe('invalid');
    expect(await desk.fail('accounts:topup', { account: 'nobody', requests: 5 })).toMatchObject({
      code: 'not_found',
    });
  });

  it('sets and clears limits, sets the threshold', async () => {
    const set = await desk.ok('accounts:set-limits', { account: 'shop', rps: 3, burst: 7 });
    expect(set.limits).toEqual({ rps: 3, burst: 7, source: 'override' });
    expect((await desk.fail('accounts:set-limits', { account: 'shop', rps: 0, burst: 1 })).code).toBe(
      'invalid',
    );
    const cleared = await desk.ok('accounts:clear-limits', { account: 'shop' });
    expect(cleared.limits.source).toBe('tier');
    expect((await desk.fail('accounts:clear-limits', {})).code).toBe('invalid');
    expect((await desk.ok('accounts:set-threshold', { account: 'shop', threshold: '500' })).threshold).toBe(
      '500',
    );
    expect((await desk.fail('accounts:set-threshold', { account: 'shop', threshold: '7' })).code).toBe(
      'invalid',
    );
  });

  it('pushes balance:low when a /v1 charge crosses the threshold, and logs it', async () => {
    await desk.ok('accounts:create', { name: 'low', balance: 101 });
    await desk.ok('accounts:set-threshold', { account: 'low', threshold: '100' });
    const key = (await desk.ok('keys:create', { account: 'low', name: 'low key' })).secret;
    expect((await postRates(key)).status).toBe(200);
    const low = desk.eventsOf('balance:low');
    expect(low).toEqual([{ account: 'low', threshold: 100, balance: 100, at: expect.any(String) }]);
    expect(desk.eventsOf('balance:changed').at(-1)).toMatchObject({ account: 'low', balance: 100 });
    const log = await desk.ok('notifications:list');
    expect(log[0]).toMatchObject({ account: 'low', threshold: 100, balance: 100 });
    expect(await desk.ok('notifications:list', { limit: 1 })).toHaveLength(1);
    expect((await desk.fail('notifications:list', { limit: 0 })).code).toBe('invalid');
  });
});

describe('keys', () => {
  it('creates a key that works on /v1 until keys:revoke, then gets 401', async () => {
    const created = await desk.ok('keys:create', { account: 'default', name: 'Warehouse PC' });
    expect(created.secret).toMatch(/^rdk_/);
    expect((await postRates(created.secret)).status).toBe(200);
    const listed = (await desk.ok('keys:list')).find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({
      name: 'Warehouse PC',
      state: 'active',
      last_four: created.secret.slice(-4),
    });
    expect(JSON.stringify(await desk.ok('keys:list'))).not.toContain(created.secret);

    const revoked = await desk.ok('keys:revoke', { id: created.id });
    expect(revoked).toMatchObject({ state: 'revoked', already_revoked: false });
    const after = await postRates(created.secret);
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('api_key_revoked');
    expect((await desk.ok('keys:revoke', { id: created.id })).already_revoked).toBe(true);
    expect((await desk.fail('keys:revoke', { id: 'nope' })).code).toBe('invalid');
    expect((await desk.fail('keys:revoke', { id: 'key_000000000000' })).code).toBe('not_found');
    expect((await desk.fail('keys:create', { account: 'default', name: '' })).code).toBe('invalid');
    expect((await desk.fail('keys:list', { account: '' })).code).toBe('invalid');
    expect((await desk.ok('keys:list', { account: 'low' })).map((k) => k.account)).toEqual(['low']);
  });

  it('imports a pasted secret, which then authenticates', async () => {
    const secret = 'partner-issued-key-0123456789abcdef';
    const r = await desk.ok('keys:import', { account: 'default', name: 'From partner', secret });
    expect(r).toMatchObject({ imported: 1, skipped: 0, key: { origin: 'imported', name: 'From partner' } });
    expect((await postRates(secret)).status).toBe(200);
    expect(await desk.fail('keys:import', { account: 'default', name: 'again', secret })).toMatchObject({
      code: 'conflict',
    });
    const bad = await desk.fail('keys:import', { account: 'default', name: 'x', secret: 'short secret' });
    expect(bad.code).toBe('invalid');
    expect(bad.message).not.toContain('short secret');
  });

  it('exports digests only and imports the export file', async () => {
    const created = await desk.ok('keys:create', { account: 'default', name: 'to export' });
    const file = await desk.ok('keys:export', {});
    expect(file.filename).toMatch(/^ratedesk-keys-all-\d{4}-\d{2}-\d{2}\.json$/);
    expect(file.json).not.toContain(created.secret);
    const doc = JSON.parse(file.json) as { format: string; keys: unknown[] };
    expect(doc.format).toBe('ratedesk-keys');
    const again = await desk.ok('keys:import', { document: file.json });
    expect(again).toEqual({ imported: 0, skipped: doc.keys.length, accounts_created: [], key: null });
    expect((await desk.ok('keys:export', { account: 'low' })).filename).toMatch(/^ratedesk-keys-low-/);
    expect((await desk.fail('keys:export', { account: 5 })).code).toBe('invalid');
    expect(await desk.fail('keys:import', { document: 'not json' })).toMatchObject({ code: 'invalid' });
    expect((await desk.fail('keys:import', { document: '{"format":"other"}' })).code).toBe('invalid');
    expect((await desk.fail('keys:import', {})).code).toBe('invalid');
  });
});

describe('settings and app:info', () => {
  it('reports the app', async () => {
    const info = await desk.ok('app:info');
    expect(info).toEqual({
      version: '9.9.9-test',
      sandbox: true,
      dataDir: desk.dir,
      language: 'ru',
      theme: 'system',
      listenerUrl: desk.service.listener!.url,
    });
    expect((await desk.fail('app:info', { x: 1 })).code).toBe('invalid');
  });

  it('sets ui.* and the sandbox switch, validated by the settings schema', async () => {
    expect((await desk.ok('settings:set', { name: 'ui.language', value: 'en' })).value).toBe('en');
    expect((await desk.ok('settings:set', { name: 'ui.theme', value: 'dark' })).value).toBe('dark');
    expect(await desk.ok('app:info')).toMatchObject({ language: 'en', theme: 'dark' });
    const presets = JSON.stringify([{ name: 'Shoe box', length_cm: 33, width_cm: 20, height_cm: 12 }]);
    expect((await desk.ok('settings:set', { name: 'ui.box_presets', value: presets })).value).toBe(presets);
    expect((await desk.fail('settings:set', { name: 'ui.box_presets', value: '[{"name":1}]' })).code).toBe(
      'invalid',
    );
    expect((await desk.fail('settings:set', { name: 'ui.language', value: 'fr' })).code).toBe('invalid');
    expect((await desk.fail('settings:set', { name: 'no.such', value: 'x' })).code).toBe('not_found');
    expect((await desk.fail('settings:set', { name: 'listener.port', value: '9000' })).message).toContain(
      'listener:update',
    );

    await desk.ok('settings:set', { name: 'sandbox', value: 'off' });
    expect((await desk.ok('app:info')).sandbox).toBe(false);
    await desk.ok('settings:set', { name: 'sandbox', value: 'on' });
    expect((await desk.ok('app:info')).sandbox).toBe(true);

    const all = await desk.ok('settings:get');
    expect(all.find((s) => s.name === 'ui.language')).toMatchObject({
      value: 'en',
      is_set: true,
      default: 'ru',
    });
    expect((await desk.fail('settings:get', { x: 1 })).code).toBe('invalid');
  });
});
