// warehouses list | add | update | remove (#20): the origins a desk quotes from.
import type { Warehouse, WarehouseFields } from '../../contract/operations';
import { OperationError } from '../../operations/errors';
import { renderTable, UsageError } from '../admin-io';
import type { Command, Context } from './command';

type BoxPreset = WarehouseFields['box_presets'][number];

function presetsText(presets: readonly BoxPreset[]): string {
  return presets.map((b) => `${b.name}:${b.length_cm}x${b.width_cm}x${b.height_cm}`).join(',');
}

function warehousesTable(rows: Warehouse[]): string {
  return renderTable(rows, [
    { header: 'ID', cell: (w) => String(w.id) },
    { header: 'NAME', cell: (w) => w.name },
    { header: 'CITY', cell: (w) => w.city },
    { header: 'INDEX', cell: (w) => w.postal_code ?? '-' },
    { header: 'CARRIERS', cell: (w) => w.default_carriers.join(',') || 'desk default' },
    { header: 'BOXES', cell: (w) => presetsText(w.box_presets) || 'desk default' },
    { header: 'ADDRESS', cell: (w) => w.address },
  ]);
}

/** `none` (or an empty value) clears a list or the index. */
const cleared = (value: string): boolean => value.trim() === '' || value.trim().toLowerCase() === 'none';

function carriersOption(value: string): string[] {
  return cleared(value)
    ? []
    : value
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '');
}

/** `Малая:20x15x10,Средняя:30x20x15`; the operation checks the sizes' ranges. */
function boxesOption(value: string): BoxPreset[] {
  if (cleared(value)) return [];
  return value.split(',').map((item) => {
    const m = /^(.+):(\d+(?:\.\d+)?)[x×](\d+(?:\.\d+)?)[x×](\d+(?:\.\d+)?)$/.exec(item.trim());
    if (!m)
      throw new UsageError(`--boxes: "${item.trim()}" is not NAME:LxWxH (centimetres), e.g. Малая:20x15x10.`);
    return { name: m[1]!.trim(), length_cm: Number(m[2]), width_cm: Number(m[3]), height_cm: Number(m[4]) };
  });
}

/** The fields the flags give, over `base` (a new warehouse's defaults, or the one being updated). */
function fields(ctx: Context, base: Partial<WarehouseFields>): Record<string, unknown> {
  const v = ctx.values;
  return {
    ...base,
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.city !== undefined ? { city: v.city } : {}),
    ...(v['postal-code'] !== undefined
      ? { postal_code: cleared(v['postal-code']) ? null : v['postal-code'].trim() }
      : {}),
    ...(v.address !== undefined ? { address: v.address } : {}),
    ...(v.carriers !== undefined ? { default_carriers: carriersOption(v.carriers) } : {}),
    ...(v.boxes !== undefined ? { box_presets: boxesOption(v.boxes) } : {}),
  };
}

function warehouseId(text: string, usage: string): number {
  if (!/^\d+$/.test(text))
    throw new UsageError(`ID must be a warehouse's number (see "warehouses list"). Usage: ${usage}`);
  return Number(text);
}

function oneLine(w: Warehouse): string {
  const index = w.postal_code ? `, ${w.postal_code}` : '';
  return `#${w.id} ${w.name}: ${w.city}${index}`;
}

const FIELD_OPTIONS = ['city', 'postal-code', 'address', 'carriers', 'boxes'] as const;
const ADD_USAGE =
  'warehouses add NAME --city CITY [--postal-code NNNNNN] [--address TEXT] [--carriers a,b] [--boxes NAME:LxWxH,…]';
const UPDATE_USAGE =
  'warehouses update ID [--name NAME] [--city CITY] [--postal-code NNNNNN|none] [--address TEXT] [--carriers a,b|none] [--boxes NAME:LxWxH,…|none]';

export const warehouseCommands: Record<string, Command> = {
  'warehouses list': {
    usage: 'warehouses list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const rows = await ctx.run('warehouses:list');
      return {
        json: rows,
        text:
          rows.length === 0
            ? 'No warehouses yet. Add one: warehouses add NAME --city CITY\n'
            : warehousesTable(rows),
      };
    },
  },
  'warehouses add': {
    usage: ADD_USAGE,
    args: [1, 1],
    options: [...FIELD_OPTIONS],
    run: async (ctx) => {
      if (ctx.values.city === undefined) throw new UsageError(`--city is required. Usage: ${ADD_USAGE}`);
      const w = await ctx.run('warehouses:create', fields(ctx, { name: ctx.args[0]! }));
      return { json: w, text: `Added warehouse ${oneLine(w)}.\n` };
    },
  },
  'warehouses update': {
    usage: UPDATE_USAGE,
    args: [1, 1],
    options: ['name', ...FIELD_OPTIONS],
    run: async (ctx) => {
      const id = warehouseId(ctx.args[0]!, UPDATE_USAGE);
      const current = (await ctx.run('warehouses:list')).find((w) => w.id === id);
      if (!current) throw new OperationError('not_found', `No warehouse #${id}. See "warehouses list".`);
      const { id: _id, created_at: _c, updated_at: _u, ...base } = current;
      const w = await ctx.run('warehouses:update', { id, ...fields(ctx, base) });
      return { json: w, text: `Updated warehouse ${oneLine(w)}.\n` };
    },
  },
  'warehouses remove': {
    usage: 'warehouses remove ID',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const removed = await ctx.run('warehouses:remove', {
        id: warehouseId(ctx.args[0]!, 'warehouses remove ID'),
      });
      return {
        json: removed,
        text: `Removed warehouse #${removed.id} ${removed.name}; quotes made from it keep its name.\n`,
      };
    },
  },
};
