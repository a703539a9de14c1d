// The contract, the operations and dispatchDesk agree: every channel has an operation, answers a valid input
// with a value of its output schema, and answers an invalid one with {code:'invalid'}. The two tables are
// Record<DeskChannel, …>, so a new channel without a case here does not compile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskChannels, type DeskChannel, type DeskInput } from '../../../core/desk/contract';
import { dispatchDesk } from '../../../core/desk/dispatch';
import { OperationError, OPERATIONS } from '../../../core/operations';
import { isAudited } from '../../../core/operations/audit-log';
import { DESK_LOCAL_OPERATIONS, isDeskLocalOperation, roleAllows } from '../../../core/contract/operations';
import type { OperationTable } from '../../../core/operations/define';
import {
  digestDeviceToken,
  digestEnrolmentCode,
  generateDeviceToken,
} from '../../../core/keys/desk-credentials';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';
import { SHIPPED_YEARS } from '../../../core/quote/calendar/data';

let desk: DeskHarness;
beforeAll(async () => {
  desk = await startDesk();
});
afterAll(() => desk.close());

const RATE_CARD_CSV =
  'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type\n*,*,5000,300,1,2,door\n';

interface Ids {
  quoteId: number;
  keyId: string;
  warehouseId: number;
  deviceId: string;
}
const ids: Ids = { quoteId: 0, keyId: '', warehouseId: 0, deviceId: '' };

const hasCompanyLink = (): boolean => desk.service.desk.context.service.company !== undefined;

/** In this order: later cases use what earlier ones created. */
const VALID: { [C in DeskChannel]: () => DeskInput<C> } = {
  'app:info': () => undefined,
  'quote:run': () => ({ quoteKey: 'a', shipment: SHIPMENT }),
  'quote:export': () => ({ id: ids.quoteId, format: 'csv' }),
  'cities:search': () => ({ query: 'Мос' }),
  'points:search': () => ({
    carrier: 'cdek',
    to: { city: 'Москва' },
    places: [{ weight_grams: 1000, length_cm: 20, width_cm: 15, height_cm: 10 }],
  }),
  'history:search': () => ({ text: 'Москва' }),
  'history:get': () => ({ id: ids.quoteId }),
  'history:rerun': () => ({ id: ids.quoteId, quoteKey: 'b' }),
  'history:export': () => ({ format: 'xlsx' }),
  'history:curl': () => ({ id: ids.quoteId }),
  'carriers:list': () => ({}),
  'carriers:update': () => ({ code: 'cdek', enabled: true }),
  'carriers:check': () => ({ code: 'russian-post' }),
  'ratecards:check': () => ({ csv: RATE_CARD_CSV }),
  'ratecards:import': () => ({ code: 'courier', name: 'Курьер', csv: RATE_CARD_CSV }),
  'ratecards:list': () => undefined,
  'ratecards:remove': () => ({ code: 'courier' }),
  'ratecards:template': () => ({ format: 'xlsx' }),
  'accounts:list': () => undefined,
  'accounts:create': () => ({ name: 'acme', balance: 5 }),
  'accounts:topup': () => ({ account: 'acme', requests: 10 }),
  'accounts:set-limits': () => ({ account: 'acme', rps: 1.5, burst: 3 }),
  'accounts:clear-limits': () => ({ account: 'acme' }),
  'accounts:set-threshold': () => ({ account: 'acme', threshold: 'auto' }),
  'notifications:list': () => undefined,
  'keys:list': () => undefined,
  'keys:create': () => ({ account: 'acme', name: 'k' }),
  'keys:import': () => ({ account: 'acme', name: 'imported', secret: 'abcdefghijklmnopqrstuvwxyz' }),
  'keys:revoke': () => ({ id: ids.keyId }),
  'keys:export': () => ({ account: 'acme' }),
  'settings:get': () => undefined,
  'settings:set': () => ({ name: 'ui.default_carriers', value: 'cdek' }),
  'listener:status': () => undefined,
  'listener:update': () => ({ enabled: true }),
  'users:list': () => undefined,
  'users:add': () => ({ name: 'anna', role: 'clerk' }),
  'users:set-role': () => ({ name: 'anna', role: 'admin' }),
  'users:disable': () => ({ name: 'anna' }),
  'users:enable': () => ({ name: 'anna' }),
  'users:enrol': () => ({ name: 'anna' }),
  'devices:list': () => ({ user: 'anna' }),
  'devices:revoke': () => ({ id: ids.deviceId }),
  'users:remove': () => ({ name: 'anna' }),
  'warehouses:list': () => undefined,
  'warehouses:create': () => ({ name: 'Подольск', city: 'Подольск', postal_code: '142100' }),
  'warehouses:update': () => ({ id: ids.warehouseId, name: 'Подольск-2', city: 'Подольск' }),
  'quote:run-origins': () => ({ quoteKey: 'o', shipment: SHIPMENT }),
  'warehouses:remove': () => ({ id: ids.warehouseId }),
  'pricing:list': () => undefined,
  'pricing:set': () => ({ account: null, carrier: 'cdek', markup_percent: 10, rounding: '10' }),
  'pricing:remove': () => ({ account: null, carrier: 'cdek' }),
  'audit:search': () => undefined,
  'audit:export': () => ({ action: 'users' }),
  'company:status': () => undefined,
  'company:probe': () => ({ url: 'https://127.0.0.1:1' }),
  'company:join': () => ({ url: 'https://127.0.0.1:1', code: 'AAAA-BBBB-CCCC', device_name: 'Касса 1' }),
  'company:leave': () => undefined,
  'bulk:parse': () => ({
    filename: 'a.csv',
    content: Buffer.from('куда;вес, кг;длина;ширина;высота\nКазань;1;10;10;10\n').toString('base64'),
  }),
  'bulk:run': () => ({ runKey: 'bulk-a', rows: [{ line: 2, shipment: SHIPMENT }] }),
  'bulk:cancel': () => ({ runKey: 'bulk-a' }),
  'bulk:export': () => ({ format: 'csv', rows: [] }),
  'calendar:info': () => undefined,
  'calendar:import': () => ({
    year: 2025,
    source: 'dispatch test: the shipped 2025',
    days_off: Object.keys(SHIPPED_YEARS[0]!.daysOff),
    working_days: Object.keys(SHIPPED_YEARS[0]!.workingDays),
  }),
};

const INVALID: Record<DeskChannel, unknown> = {
  'app:info': { extra: 1 },
  'quote:run': { quoteKey: 'a', shipment: { ...SHIPMENT, parcel: { weight_grams: -1 } } },
  'quote:export': { id: 1, format: 'pdf' },
  'cities:search': { query: 5 },
  'points:search': { carrier: 'cdek', to: { city: 'Москва' }, places: [] },
  'history:search': { offset: -1 },
  'history:get': { id: 1.5 },
  'history:rerun': { id: 1, quoteKey: '' },
  'history:export': { format: 'pdf' },
  'history:curl': {},
  'carriers:list': [],
  'carriers:update': { code: 'cdek', enabled: 'yes' },
  'carriers:check': { code: 'cdek', endpoint: 'moon' },
  'ratecards:check': { csv: 5 },
  'ratecards:import': { code: 'Courier X', name: 'x', csv: '' },
  'ratecards:list': { code: 'x' },
  'ratecards:remove': {},
  'ratecards:template': { format: 'ods' },
  'accounts:list': { name: 'x' },
  'accounts:create': { name: '' },
  'accounts:topup': { account: 'acme', requests: 1.5 },
  'accounts:set-limits': { account: 'acme', rps: 1, burst: 0 },
  'accounts:clear-limits': { account: '' },
  'accounts:set-threshold': { account: 'acme', threshold: 'sometimes' },
  'notifications:list': { limit: 5000 },
  'keys:list': { account: 1 },
  'keys:create': { account: 'acme', name: 'a\u0007b' },
  'keys:import': { account: 'acme', name: 'x', secret: 'y', document: 'z' },
  'keys:revoke': { id: 'key_short' },
  'keys:export': 'acme',
  'settings:get': 1,
  'settings:set': { name: 'ui.theme' },
  'listener:status': null,
  'listener:update': { host: '192.168.1.10' },
  'users:list': { x: 1 },
  'users:add': { name: 'anna maria', role: 'clerk' },
  'users:set-role': { name: 'anna', role: 'boss' },
  'users:disable': {},
  'users:enable': { name: '' },
  'users:remove': { name: 5 },
  'users:enrol': { name: 'anna', ttl_minutes: 0 },
  'devices:list': { user: '' },
  'devices:revoke': { id: '' },
  'warehouses:list': { a: 1 },
  'warehouses:create': { name: 'x', city: 'y', postal_code: '12' },
  'warehouses:update': { name: 'x', city: 'y' },
  'warehouses:remove': { id: 0 },
  'pricing:list': { a: 1 },
  'pricing:set': { account: null, carrier: null, markup_percent: 12.345 },
  'pricing:remove': { account: null },
  'quote:run-origins': { quoteKey: 'a', shipment: SHIPMENT, warehouse_ids: [] },
  'audit:search': { limit: 0 },
  'audit:export': { actor: 5 },
  'company:status': { x: 1 },
  'company:probe': { url: 'http://plain.example' },
  'company:join': { url: 'https://x.example', code: '', device_name: 'd' },
  'company:leave': 1,
  'bulk:parse': { filename: 'a.csv', content: 'not base64!' },
  'bulk:run': { runKey: 'x', rows: [] },
  'bulk:cancel': { runKey: '' },
  'bulk:export': { format: 'pdf', rows: [] },
  'calendar:info': { year: 2025 },
  'calendar:import': { year: 2025, source: 'x', days_off: ['2026-01-01'] },
};

describe('every channel', () => {
  it('is exactly one operation of the one table', () => {
    for (const channel of Object.keys(deskChannels))
      expect(Object.hasOwn(OPERATIONS, channel), channel).toBe(true);
  });

  it('answers a valid input with a value of its output schema', async () => {
    for (const channel of Object.keys(VALID) as DeskChannel[]) {
      // The desk host gives the service its company link; a service without one refuses the link's operations.
      if (channel.startsWith('company:') && !hasCompanyLink()) {
        expect(await desk.fail(channel, VALID[channel]())).toEqual({
          code: 'forbidden',
          message: 'Only a desk has a company link.',
        });
        continue;
      }
      const value: unknown = await desk.ok(channel, VALID[channel]() as never);
      if (channel === 'quote:run') ids.quoteId = (value as { quote_id: number }).quote_id;
      if (channel === 'keys:create') ids.keyId = (value as { id: string }).id;
      if (channel === 'warehouses:create') ids.warehouseId = (value as { id: number }).id;
      if (channel === 'users:enrol') {
        // What the gateway does with the code: a device to list and revoke.
        const { code } = value as { code: string };
        const redeemed = await desk.service.store.users.redeemEnrolmentCode(
          digestEnrolmentCode(code),
          new Date().toISOString(),
          { id: 'dev_dispatch', token_digest: digestDeviceToken(generateDeviceToken()), name: 'Касса 1' },
        );
        expect(redeemed.ok).toBe(true);
        ids.deviceId = 'dev_dispatch';
      }
    }
    expect(ids.quoteId).toBeGreaterThan(0);
    // #20: each admin change above is exactly one audit entry; nothing else wrote one.
    const entries = await desk.ok('audit:search', { limit: 1000 });
    const audited = (Object.keys(VALID) as DeskChannel[]).filter(isAudited);
    expect(audited.length).toBeGreaterThan(20);
    for (const channel of audited)
      expect(entries.filter((e) => e.action === channel).length, channel).toBe(1);
    expect(entries.map((e) => e.action).filter((a) => !isAudited(a))).toEqual([]);
  });

  it.each(Object.entries(INVALID))('%s rejects an invalid input', async (channel, input) => {
    const e = await desk.fail(channel, input);
    expect(e.code).toBe('invalid');
    expect(e.message.length).toBeGreaterThan(0);
  });
});

describe('dispatchDesk', () => {
  it('refuses a channel the contract does not have', async () => {
    // settings:reset is an operation of the admin CLI only: the page has no channel for it.
    for (const name of ['shell:exec', 'toString', '__proto__', 'constructor', 'settings:reset']) {
      expect(await desk.raw(name, {})).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'Unknown desk channel.' },
      });
    }
  });

  it('names every failing path in one readable line', async () => {
    const e = await desk.fail('accounts:set-limits', { account: '', rps: 'fast' });
    expect(e.message).toMatch(/^account: .+; rps: .+; burst: .+$/);
  });

  it('passes expected failures on and hides everything else behind "internal"', async () => {
    const boom = Object.assign(new Error('SQLITE_CORRUPT at /home/user/secret/path'), {
      stack: 'Error: at x.ts:1',
    });
    const table: OperationTable = {
      ...OPERATIONS,
      'app:info': {
        needs: 'service',
        run: () => {
          throw boom;
        },
      },
      'accounts:list': {
        needs: 'store',
        run: () => {
          throw new OperationError('conflict', 'Busy.');
        },
      },
    };
    const ctx = desk.service.desk.context;
    const logged: unknown[] = [];
    const logger = {
      info() {},
      warn() {},
      error: (m: string, f?: Record<string, unknown>) => logged.push({ m, f }),
    };
    const r = await dispatchDesk(ctx, 'app:info', undefined, logger, table);
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: 'Unexpected error' } });
    expect(JSON.stringify(r)).not.toContain('SQLITE');
    expect(logged).toEqual([
      { m: 'desk operation failed', f: { channel: 'app:info', error: boom.message, stack: boom.stack } },
    ]);
    expect(await dispatchDesk(ctx, 'accounts:list', undefined, undefined, table)).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'Busy.' },
    });
    // Without a logger the failure is still contained.
    expect((await dispatchDesk(ctx, 'app:info', undefined, undefined, table)).ok).toBe(false);
  });
});

describe('roles (#20): a company desk user’s call', () => {
  const as = (role: 'clerk' | 'admin') => ({
    ...desk.service.desk.context,
    actor: { kind: 'user' as const, name: 'anna', role },
  });
  const NOT_AN_INPUT = { definitely_not_in_the_contract: true };

  it.each(['clerk', 'admin'] as const)(
    'as %s: refused with forbidden exactly where roles.ts says, before the input is read',
    async (role) => {
      const refused: string[] = [];
      for (const channel of Object.keys(deskChannels) as DeskChannel[]) {
        const r = await dispatchDesk(as(role), channel, NOT_AN_INPUT);
        expect(r.ok, channel).toBe(false);
        const code = r.ok ? '' : r.error.code;
        // Allowed: the operation's own parse refuses the input. Refused: forbidden, whatever the input.
        expect(['invalid', 'forbidden'], channel).toContain(code);
        if (code === 'forbidden') refused.push(channel);
      }
      const expected = (Object.keys(deskChannels) as DeskChannel[]).filter(
        (c) => isDeskLocalOperation(c) || !roleAllows(role, c),
      );
      expect(refused.sort()).toEqual(expected.sort());
      // The table itself: a clerk is refused the admin's work, an admin only the desk's own link and listener.
      if (role === 'clerk') {
        for (const c of ['users:add', 'accounts:topup', 'keys:create', 'carriers:update', 'audit:search'])
          expect(refused).toContain(c);
        for (const c of ['quote:run', 'history:search', 'carriers:list', 'accounts:list', 'warehouses:list'])
          expect(refused).not.toContain(c);
      } else {
        expect(refused.sort()).toEqual([...DESK_LOCAL_OPERATIONS].sort());
      }
    },
  );

  it('a clerk refused an admin operation changes nothing; the same call without a role does', async () => {
    const before = (await desk.ok('accounts:list')).length;
    const r = await dispatchDesk(as('clerk'), 'accounts:create', { name: 'clerk-made' });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message: 'A clerk may not run accounts:create: an admin of the company server can.',
      },
    });
    expect((await desk.ok('accounts:list')).length).toBe(before);
    const admin = await dispatchDesk(as('admin'), 'accounts:create', { name: 'admin-made' });
    expect(admin.ok).toBe(true);
    expect((await desk.ok('accounts:list')).length).toBe(before + 1);
    // The audit log names the user who made the change.
    const [entry] = await desk.ok('audit:search', { action: 'accounts:create', limit: 1 });
    expect(entry).toMatchObject({ actor_kind: 'user', actor: 'anna', target: 'admin-made' });
  });

  it('a clerk runs a clerk operation as themselves: history names them', async () => {
    const r = await dispatchDesk(as('clerk'), 'quote:run', { quoteKey: 'clerk', shipment: SHIPMENT });
    expect(r.ok).toBe(true);
    const id = (r as { ok: true; value: { quote_id: number } }).value.quote_id;
    expect(await desk.ok('history:get', { id })).toMatchObject({ author: 'anna', warehouse: null });
    const mine = await desk.ok('history:search', { author: 'anna' });
    expect(mine.map((q) => q.id)).toEqual([id]);
  });
});
