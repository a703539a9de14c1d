// accounts list | create | topup | limits | threshold
import type { AccountView } from '../../contract/operations';
import { renderTable, UsageError } from '../admin-io';
import { numberOption, required, type Command, type Context, type Output } from './command';

function accountsTable(rows: AccountView[]): string {
  return renderTable(rows, [
    { header: 'NAME', cell: (a) => a.name },
    { header: 'TIER', cell: (a) => a.tier },
    { header: 'BALANCE', cell: (a) => String(a.balance) },
    { header: 'RPS', cell: (a) => String(a.limits.rps) },
    { header: 'BURST', cell: (a) => String(a.limits.burst) },
    { header: 'LIMITS', cell: (a) => a.limits.source },
    { header: 'THRESHOLD', cell: (a) => a.threshold },
    { header: 'LAST PACKAGE', cell: (a) => (a.last_package === null ? '-' : String(a.last_package)) },
    { header: 'CREATED', cell: (a) => a.created_at },
  ]);
}

const TOPUP_USAGE = 'accounts topup ACCOUNT --requests N';
const LIMITS_USAGE = 'accounts limits ACCOUNT --rps R --burst B | --clear';

function limitsLine(account: AccountView): string {
  const { limits } = account;
  const source = limits.source === 'tier' ? `${account.tier} tier` : 'override';
  return `${account.name}: ${limits.rps} requests/s, burst ${limits.burst} (${source}).\n`;
}

async function accountsLimits(ctx: Context): Promise<Output> {
  const { rps, burst, clear } = ctx.values;
  if (clear && (rps !== undefined || burst !== undefined)) {
    throw new UsageError(`--clear cannot be combined with --rps/--burst. Usage: ${LIMITS_USAGE}`);
  }
  const name = ctx.args[0]!;
  if (clear) {
    const account = await ctx.run('accounts:clear-limits', { account: name });
    return { json: account, text: limitsLine(account) };
  }
  if (rps === undefined || burst === undefined)
    throw new UsageError(`give both --rps and --burst. Usage: ${LIMITS_USAGE}`);
  const account = await ctx.run('accounts:set-limits', {
    account: name,
    rps: numberOption('rps', rps),
    burst: numberOption('burst', burst),
  });
  return { json: account, text: limitsLine(account) };
}

export const accountCommands: Record<string, Command> = {
  'accounts list': {
    usage: 'accounts list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const rows = await ctx.run('accounts:list');
      return { json: rows, text: accountsTable(rows) };
    },
  },
  'accounts create': {
    usage: 'accounts create NAME [--balance N]',
    args: [1, 1],
    options: ['balance'],
    run: async (ctx) => {
      const balance =
        ctx.values.balance === undefined ? undefined : numberOption('balance', ctx.values.balance);
      const account = await ctx.run('accounts:create', { name: ctx.args[0]!, balance });
      return {
        json: account,
        text: `Created account ${account.name} (${account.tier}, balance ${account.balance}).\n`,
      };
    },
  },
  'accounts topup': {
    usage: TOPUP_USAGE,
    args: [1, 1],
    options: ['requests'],
    run: async (ctx) => {
      const requests = numberOption('requests', required(ctx, 'requests', TOPUP_USAGE));
      const account = await ctx.run('accounts:topup', { account: ctx.args[0]!, requests });
      return {
        json: account,
        text: `Added ${requests} requests to ${account.name}: balance ${account.balance} (${account.tier}).\n`,
      };
    },
  },
  'accounts limits': {
    usage: LIMITS_USAGE,
    args: [1, 1],
    options: ['rps', 'burst', 'clear'],
    run: accountsLimits,
  },
  'accounts threshold': {
    usage: 'accounts threshold ACCOUNT 100|500|1000|auto|off',
    args: [2, 2],
    options: [],
    run: async (ctx) => {
      const [account, threshold] = ctx.args as [string, string];
      const view = await ctx.run('accounts:set-threshold', { account, threshold });
      return { json: view, text: `${view.name}: low-balance threshold ${view.threshold}.\n` };
    },
  },
};
