// The contract file itself: the API shape buildDeskApi exposes (what the preload and the e2e harness put on
// window.ratedesk), and that the renderer can import it without pulling in Node.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  buildDeskApi,
  deskChannels,
  deskEventMethod,
  deskEvents,
  deskMethodPath,
  DESK_API_GLOBAL,
  type DeskApi,
  type DeskChannel,
  type DeskEvent,
  type DeskResult,
} from '../../../../core/desk/contract';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

const EXPECTED_API = {
  app: ['info'],
  quote: ['export', 'run', 'runOrigins'],
  cities: ['search'],
  points: ['search'],
  history: ['curl', 'export', 'get', 'rerun', 'search'],
  carriers: ['check', 'list', 'update'],
  ratecards: ['check', 'import', 'list', 'remove', 'template'],
  accounts: ['clearLimits', 'create', 'list', 'setLimits', 'setThreshold', 'topup'],
  notifications: ['list'],
  keys: ['create', 'export', 'import', 'list', 'revoke'],
  settings: ['get', 'set'],
  listener: ['status', 'update'],
  users: ['add', 'disable', 'enable', 'enrol', 'list', 'remove', 'setRole'],
  devices: ['list', 'revoke'],
  warehouses: ['create', 'list', 'remove', 'update'],
  audit: ['export', 'search'],
  company: ['join', 'leave', 'probe', 'status'],
  bulk: ['cancel', 'export', 'parse', 'run'],
  calendar: ['import', 'info'],
  pricing: ['list', 'remove', 'set'],
  on: ['balanceChanged', 'balanceLow', 'bulkProgress', 'carriersStatus', 'companyStatus', 'quoteProgress'],
};

function recordingApi() {
  const invoked: Array<[DeskChannel, unknown]> = [];
  const subscribed: DeskEvent[] = [];
  const unsubscribed: DeskEvent[] = [];
  const api = buildDeskApi(
    async (channel, input) => {
      invoked.push([channel, input]);
      return { ok: true, value: channel };
    },
    (event) => {
      subscribed.push(event);
      return () => unsubscribed.push(event);
    },
  );
  return { api, invoked, subscribed, unsubscribed };
}

describe('buildDeskApi', () => {
  it('exposes exactly one function per channel and event, under the expected names', () => {
    const { api } = recordingApi();
    const shape = Object.fromEntries(
      Object.entries(api as unknown as Record<string, Record<string, unknown>>).map(([area, fns]) => {
        for (const fn of Object.values(fns)) expect(typeof fn).toBe('function');
        return [area, Object.keys(fns).sort()];
      }),
    );
    expect(shape).toEqual(EXPECTED_API);
    const count = Object.values(shape).reduce((n, fns) => n + fns.length, 0);
    expect(count).toBe(Object.keys(deskChannels).length + Object.keys(deskEvents).length);
  });

  it('routes every method to its channel with the input untouched', async () => {
    const { api, invoked } = recordingApi();
    for (const channel of Object.keys(deskChannels) as DeskChannel[]) {
      const [area, method] = deskMethodPath(channel);
      const fn = (api as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>)[area]![
        method
      ]!;
      const input = { marker: channel };
      expect(await fn(input)).toEqual({ ok: true, value: channel });
      expect(invoked.at(-1)).toEqual([channel, input]);
    }
    await api.accounts.list();
    expect(invoked.at(-1)).toEqual(['accounts:list', undefined]);
    await api.accounts.clearLimits({ account: 'shop' });
    expect(invoked.at(-1)).toEqual(['accounts:clear-limits', { account: 'shop' }]);
  });

  it('subscribes events and hands back their unsubscribe', () => {
    const { api, subscribed, unsubscribed } = recordingApi();
    const off = api.on.quoteProgress(() => {});
    api.on.balanceLow(() => {});
    expect(subscribed).toEqual(['quote:progress', 'balance:low']);
    off();
    expect(unsubscribed).toEqual(['quote:progress']);
  });

  it('names methods by the documented rule', () => {
    expect(deskMethodPath('accounts:clear-limits')).toEqual(['accounts', 'clearLimits']);
    expect(deskMethodPath('keys:create')).toEqual(['keys', 'create']);
    expect(deskEventMethod('carriers:status')).toEqual('carriersStatus');
    expect(DESK_API_GLOBAL).toBe('ratedesk');
  });

  it('has types that follow the contract', () => {
    // Checked by tsc (expectTypeOf is a no-op at run time): the derived DeskApi type must not drift.
    expectTypeOf<DeskApi['accounts']['setLimits']>()
      .parameter(0)
      .toEqualTypeOf<{ account: string; rps: number; burst: number }>();
    expectTypeOf<DeskApi['accounts']['list']>()
      .parameter(0)
      .toEqualTypeOf<Record<string, never> | undefined>();
    expectTypeOf<Parameters<Parameters<DeskApi['on']['balanceLow']>[0]>[0]>().toEqualTypeOf<{
      account: string;
      threshold: number;
      balance: number;
      at: string;
    }>();
    expectTypeOf<Awaited<ReturnType<DeskApi['history']['curl']>>>().toEqualTypeOf<DeskResult<string>>();
  });
});

describe('the contract module', () => {
  /** Value imports (type-only ones are erased) of a TS file, followed transitively through our own files. */
  function valueImports(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // `export … from` re-exports values too, so they are followed like imports.
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)';/gms)) {
      if (m[1]) continue;
      const spec = m[2]!;
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec);
        valueImports(existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts'), seen);
      } else seen.add(spec);
    }
    return seen;
  }

  it('imports only zod and zod-only modules, so the sandboxed renderer can bundle it', () => {
    const imports = [...valueImports(join(root, 'core/desk/contract.ts'))].map((f) =>
      f.startsWith(root) ? f.slice(root.length + 1) : f,
    );
    // Since #9 the channels come from core/contract/operations: every module reached must still be zod-only
    // contract code (core/contract/**), never the operations' Node side.
    expect(imports).toContain('core/contract/operations/index.ts');
    for (const file of imports) {
      expect(
        file === 'zod' || file === 'core/desk/contract.ts' || file.startsWith('core/contract/'),
        file,
      ).toBe(true);
    }
    for (const file of imports.filter((f) => f.startsWith('core/'))) {
      expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/from 'node:|better-sqlite3/);
    }
  });
});
