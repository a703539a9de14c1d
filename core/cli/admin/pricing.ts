// pricing list | set | remove (#21): resale rules per account (or the desk's own quotes) and carrier (or all).
import { roublesText } from '../../contract/spreadsheet';
import type { PricingRuleView } from '../../contract/operations';
import { renderTable, UsageError } from '../admin-io';
import type { Command, Context } from './command';

const OWNER_USAGE = '(--account NAME | --desk) [--carrier CODE]';
const SET_USAGE = `pricing set ${OWNER_USAGE} [--percent P] [--add RUB] [--packaging RUB] [--min RUB] [--max RUB] [--round 1|5|10|none]`;
const REMOVE_USAGE = `pricing remove ${OWNER_USAGE}`;

const rub = (kopecks: number): string => `${roublesText(kopecks, '.')} RUB`;

function rulesTable(rows: PricingRuleView[]): string {
  return renderTable(rows, [
    { header: 'ACCOUNT', cell: (r) => r.account ?? 'desk' },
    { header: 'CARRIER', cell: (r) => r.carrier ?? '*' },
    { header: 'PERCENT', cell: (r) => String(r.markup_percent) },
    { header: 'ADD', cell: (r) => rub(r.markup_kopecks) },
    { header: 'PACKAGING', cell: (r) => rub(r.packaging_kopecks) },
    { header: 'MIN', cell: (r) => (r.min_kopecks === null ? '-' : rub(r.min_kopecks)) },
    { header: 'MAX', cell: (r) => (r.max_kopecks === null ? '-' : rub(r.max_kopecks)) },
    { header: 'ROUND', cell: (r) => (r.rounding === 'none' ? '-' : `up to ${r.rounding} RUB`) },
  ]);
}

/** `--account NAME` or `--desk`, exactly one; `--carrier` or every carrier. */
function owner(ctx: Context, usage: string): { account: string | null; carrier: string | null } {
  const { account, desk, carrier } = ctx.values;
  if ((account === undefined) === (desk !== true))
    throw new UsageError(`give either --account NAME or --desk (the desk's own quotes). Usage: ${usage}`);
  return { account: account ?? null, carrier: carrier ?? null };
}

/** Roubles as typed ("1234.50", "1234,50", "300") → kopecks, exactly: never through a float. */
export function roublesOption(option: string, value: string): number {
  const m = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!m)
    throw new UsageError(`--${option} must be an amount in roubles such as 300 or 1234.50, got "${value}".`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

function percentOption(value: string): number {
  if (!/^\d{1,4}(?:[.,]\d+)?$/.test(value.trim()))
    throw new UsageError(`--percent must be a number such as 15 or 12.5, got "${value}".`);
  return Number(value.trim().replace(',', '.'));
}

function roundOption(value: string): string {
  const v = value.trim().toLowerCase();
  if (!['1', '5', '10', 'none'].includes(v))
    throw new UsageError(`--round must be 1, 5, 10 or none, got "${value}".`);
  return v;
}

function describe(r: PricingRuleView): string {
  const parts = [
    r.markup_percent > 0 ? `+${r.markup_percent} %` : null,
    r.markup_kopecks > 0 ? `+${rub(r.markup_kopecks)}` : null,
    r.packaging_kopecks > 0 ? `packaging ${rub(r.packaging_kopecks)}` : null,
    r.min_kopecks !== null ? `min ${rub(r.min_kopecks)}` : null,
    r.max_kopecks !== null ? `max ${rub(r.max_kopecks)}` : null,
    r.rounding !== 'none' ? `rounded up to ${r.rounding} RUB` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? parts.join(', ') : 'the carrier price as it is';
}

const label = (r: { account: string | null; carrier: string | null }): string =>
  `${r.account === null ? "the desk's own quotes" : `account ${r.account}`}, ${r.carrier === null ? 'every carrier' : `carrier ${r.carrier}`}`;

export const pricingCommands: Record<string, Command> = {
  'pricing list': {
    usage: 'pricing list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const rows = await ctx.run('pricing:list');
      return {
        json: rows,
        text:
          rows.length === 0
            ? 'No resale rules: quotes carry no customer price. Add one: pricing set --desk --percent 15\n'
            : rulesTable(rows),
      };
    },
  },
  'pricing set': {
    usage: SET_USAGE,
    args: [0, 0],
    options: ['account', 'desk', 'carrier', 'percent', 'add', 'packaging', 'min', 'max', 'round'],
    run: async (ctx) => {
      const v = ctx.values;
      const rule = await ctx.run('pricing:set', {
        ...owner(ctx, SET_USAGE),
        ...(v.percent !== undefined ? { markup_percent: percentOption(v.percent) } : {}),
        ...(v.add !== undefined ? { markup_kopecks: roublesOption('add', v.add) } : {}),
        ...(v.packaging !== undefined ? { packaging_kopecks: roublesOption('packaging', v.packaging) } : {}),
        ...(v.min !== undefined ? { min_kopecks: roublesOption('min', v.min) } : {}),
        ...(v.max !== undefined ? { max_kopecks: roublesOption('max', v.max) } : {}),
        ...(v.round !== undefined ? { rounding: roundOption(v.round) } : {}),
      });
      const verb = rule.replaced ? 'Replaced' : 'Set';
      return { json: rule, text: `${verb} the resale rule of ${label(rule)}: ${describe(rule)}.\n` };
    },
  },
  'pricing remove': {
    usage: REMOVE_USAGE,
    args: [0, 0],
    options: ['account', 'desk', 'carrier'],
    run: async (ctx) => {
      const removed = await ctx.run('pricing:remove', owner(ctx, REMOVE_USAGE));
      return { json: removed, text: `Removed the resale rule of ${label(removed)}.\n` };
    },
  },
};
