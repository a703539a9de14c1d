// The contract, the operations and dispatchDesk agree: every channel has an operation, answers a valid input
// with a value of its output schema, and answers an invalid one with {code:'invalid'}. The two tables are
// Record<DeskChannel, …>, so a new channel without a case here does not compile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskChannels, type DeskChannel, type DeskInput } from '../../../core/desk/contract';
import { dispatchDesk } from '../../../core/desk/dispatch';
import { OperationError, OPERATIONS } from '../../../core/operations';
import type { OperationTable } from '../../../core/operations/define';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

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
}
const ids: Ids = { quoteId: 0, keyId: '' };

/** In this order: later cases use what earlier ones created. */
const VALID: { [C in DeskChannel]: () => DeskInput<C> } = {
  'app:info': () => undefined,
  'quote:run': () => ({ quoteKey: 'a', shipment: SHIPMENT }),
  'quote:export': () => ({ id: ids.quoteId, format: 'csv' }),
  'cities:search': () => ({ query: 'Мос' }),
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
};

const INVALID: Record<DeskChannel, unknown> = {
  'app:info': { extra: 1 },
  'quote:run': { quoteKey: 'a', shipment: { ...SHIPMENT, parcel: { weight_grams: -1 } } },
  'quote:export': { id: 1, format: 'pdf' },
  'cities:search': { query: 5 },
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
};

describe('every channel', () => {
  it('is exactly one operation of the one table', () => {
    for (const channel of Object.keys(deskChannels))
      expect(Object.hasOwn(OPERATIONS, channel), channel).toBe(true);
  });

  it('answers a valid input with a value of its output schema', async () => {
    for (const channel of Object.keys(VALID) as DeskChannel[]) {
      const value: unknown = await desk.ok(channel, VALID[channel]() as never);
      if (channel === 'quote:run') ids.quoteId = (value as { quote_id: number }).quote_id;
      if (channel === 'keys:create') ids.keyId = (value as { id: string }).id;
    }
    expect(ids.quoteId).toBeGreaterThan(0);
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
