// carriers list | set | secret | check: the carriers' switch, endpoint, host, timeout and account, as on the
// Carriers screen. A secret is read from stdin only (argv shows in `ps` and shell history).
import type { CarrierView } from '../../contract/operations';
import { INPUT_BOUNDS, readSecretInput, renderTable, UsageError } from '../admin-io';
import { carrierCheckCommand } from './carrier-check';
import { numberOption, type Command } from './command';

function carriersTable(rows: CarrierView[]): string {
  return renderTable(rows, [
    { header: 'CODE', cell: (c) => c.code },
    { header: 'NAME', cell: (c) => c.name },
    { header: 'ENABLED', cell: (c) => (c.enabled ? 'on' : 'off') },
    { header: 'ENDPOINT', cell: (c) => c.endpoint },
    { header: 'HOST', cell: (c) => (c.endpoint === 'simulator' ? '(built-in simulator)' : c.base_url) },
    {
      header: 'TIMEOUT',
      cell: (c) => (c.timeout_ms > 0 ? `${c.timeout_ms} ms` : `default (${c.default_timeout_ms} ms)`),
    },
    { header: 'STATUS', cell: (c) => c.status },
    {
      header: 'ACCOUNT',
      cell: (c) =>
        c.credentials === null
          ? '-'
          : c.credentials.configured
            ? [c.credentials.client_id, c.credentials.client_secret_masked]
                .filter((x) => x !== null)
                .join(' ')
            : 'not configured',
    },
    { header: 'LAST ERROR', cell: (c) => c.last_error ?? '-' },
  ]);
}

const line = (c: CarrierView): string =>
  `${c.code}: ${c.enabled ? 'on' : 'off'}, ${c.endpoint}${c.endpoint === 'simulator' ? '' : ` (${c.base_url})`}, ` +
  `timeout ${c.timeout_ms > 0 ? `${c.timeout_ms} ms` : 'default'}` +
  (c.credentials ? `, account ${c.credentials.configured ? 'configured' : 'not configured'}` : '') +
  '.\n';

const SET_USAGE =
  'carriers set CODE [--enabled on|off] [--endpoint production|test|simulator|custom] [--base-url URL] [--timeout-ms N] [--client-id ID]';

export const carrierCommands: Record<string, Command> = {
  'carriers check': carrierCheckCommand,
  'carriers list': {
    usage: 'carriers list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const rows = await ctx.run('carriers:list');
      return { json: rows, text: carriersTable(rows) };
    },
  },
  'carriers set': {
    usage: SET_USAGE,
    args: [1, 1],
    options: ['enabled', 'endpoint', 'base-url', 'timeout-ms', 'client-id'],
    run: async (ctx) => {
      const v = ctx.values;
      const enabled = v.enabled;
      if (enabled !== undefined && enabled !== 'on' && enabled !== 'off') {
        throw new UsageError(`--enabled takes on or off, got "${enabled}". Usage: ${SET_USAGE}`);
      }
      const input = {
        code: ctx.args[0]!,
        ...(enabled !== undefined ? { enabled: enabled === 'on' } : {}),
        ...(v.endpoint !== undefined ? { endpoint: v.endpoint } : {}),
        ...(v['base-url'] !== undefined ? { base_url: v['base-url'] } : {}),
        ...(v['timeout-ms'] !== undefined ? { timeout_ms: numberOption('timeout-ms', v['timeout-ms']) } : {}),
        ...(v['client-id'] !== undefined ? { client_id: v['client-id'] } : {}),
      };
      if (Object.keys(input).length === 1) throw new UsageError(`nothing to change. Usage: ${SET_USAGE}`);
      const carrier = await ctx.run('carriers:update', input);
      return { json: carrier, text: line(carrier) };
    },
  },
  'carriers secret': {
    usage: 'carriers secret CODE   (the secret is read from stdin; an empty line clears it)',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const text = await readSecretInput(
        ctx.io.stdin,
        ctx.io.stderr,
        `Secret of ${ctx.args[0]} (it will not be shown): `,
        INPUT_BOUNDS.secret,
      );
      const carrier = await ctx.run('carriers:update', {
        code: ctx.args[0]!,
        client_secret: text.replace(/\r?\n$/, '').trim(),
      });
      return { json: carrier, text: line(carrier) };
    },
  },
};
