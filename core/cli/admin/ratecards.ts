// ratecards import | list | remove: carriers without an API, quoted from a CSV of contract prices
// (docs/carriers.md "Rate cards"). A refused file prints its first problems on stderr and exits 1, nothing stored.
import type { RateCardView } from '../../contract/operations';
import { INPUT_BOUNDS, readInput, renderTable, UsageError } from '../admin-io';
import { required, type Command, type Context, type Output } from './command';

const IMPORT_USAGE = 'ratecards import --code CODE --name NAME --file F [--volumetric-divisor N]';

function kg(grams: number): string {
  return (grams / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 });
}

function cardsTable(rows: RateCardView[]): string {
  return renderTable(rows, [
    { header: 'CODE', cell: (c) => c.code },
    { header: 'NAME', cell: (c) => c.name },
    { header: 'ROWS', cell: (c) => String(c.rows) },
    { header: 'SERVICES', cell: (c) => c.services.map((s) => s.service_code).join(', ') },
    { header: 'UP TO', cell: (c) => `${kg(c.max_weight_grams)} kg` },
    { header: 'DIVISOR', cell: (c) => String(c.volumetric_divisor) },
    { header: 'STATUS', cell: (c) => c.status },
    { header: 'IMPORTED', cell: (c) => c.created_at },
  ]);
}

/** Only the shape (a whole number at all); the range is the operation's rule, shared with the desk. */
function divisorOption(ctx: Context): number | undefined {
  const text = ctx.values['volumetric-divisor'];
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) {
    throw new UsageError(
      `--volumetric-divisor must be a whole number, got "${text}". Usage: ${IMPORT_USAGE}`,
    );
  }
  return Number(text);
}

async function importCard(ctx: Context): Promise<Output> {
  const code = ctx.values.code;
  if (code === undefined) throw new UsageError(`--code is required. Usage: ${IMPORT_USAGE}`);
  const name = required(ctx, 'name', IMPORT_USAGE);
  const file = ctx.values.file;
  if (file === undefined) throw new UsageError(`--file is required. Usage: ${IMPORT_USAGE}`);
  const divisor = divisorOption(ctx);
  const csv = await readInput({ path: file }, INPUT_BOUNDS.rateCard);
  // A refused file is an OperationError('invalid') whose message is a summary, one `line N: reason` per listed
  // problem and how many more (MAX_LISTED_RATE_CARD_PROBLEMS): the runner prints it on stderr and exits 1.
  const card = await ctx.run('ratecards:import', {
    code,
    name,
    csv,
    ...(divisor === undefined ? {} : { volumetric_divisor: divisor }),
  });
  const services = card.services.map((s) => `${s.service_code} (${s.service_name}, ${s.delivery_type})`);
  return {
    json: card,
    text:
      `${card.replaced ? 'Replaced' : 'Imported'} rate card ${card.code} ${JSON.stringify(card.name)}: ` +
      `${card.rows} rows, bands up to ${kg(card.max_weight_grams)} kg, volumetric divisor ${card.volumetric_divisor}.\n` +
      `Services: ${services.join('; ')}.\n` +
      'Quotes use it from the next request.\n',
  };
}

export const rateCardCommands: Record<string, Command> = {
  'ratecards import': {
    usage: IMPORT_USAGE,
    args: [0, 0],
    options: ['code', 'name', 'file', 'volumetric-divisor'],
    run: importCard,
  },
  'ratecards list': {
    usage: 'ratecards list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const cards = await ctx.run('ratecards:list');
      return { json: cards, text: cards.length === 0 ? 'No rate cards.\n' : cardsTable(cards) };
    },
  },
  'ratecards remove': {
    usage: 'ratecards remove CODE',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const removed = await ctx.run('ratecards:remove', { code: ctx.args[0]! });
      return {
        json: removed,
        text: `Removed rate card ${removed.code} ${JSON.stringify(removed.name)}. Quotes no longer include it.\n`,
      };
    },
  },
};
