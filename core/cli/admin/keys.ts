// keys create | list | revoke | import | export. Secrets never come from arguments: import reads stdin or a file.
import { resolve } from 'node:path';
import { EXPORT_FORMAT, type KeyView } from '../../contract/operations';
import {
  INPUT_BOUNDS,
  InputError,
  readInput,
  readSecretInput,
  renderTable,
  UsageError,
  writePrivateFile,
} from '../admin-io';
import { required, type Command, type Context, type Output } from './command';

const masked = (k: { prefix: string; last_four: string }): string => `${k.prefix}${k.last_four}`;

function keysTable(rows: KeyView[]): string {
  return renderTable(rows, [
    { header: 'ID', cell: (k) => k.id },
    { header: 'NAME', cell: (k) => k.name },
    { header: 'ACCOUNT', cell: (k) => k.account },
    { header: 'KEY', cell: masked },
    { header: 'STATE', cell: (k) => k.state },
    { header: 'ORIGIN', cell: (k) => k.origin },
    { header: 'CREATED', cell: (k) => k.created_at },
    { header: 'LAST USED', cell: (k) => k.last_used_at ?? '-' },
  ]);
}

const CREATE_USAGE = 'keys create --account ACCOUNT --name NAME';
const IMPORT_USAGE = 'keys import --account ACCOUNT --name NAME [--file F]';

type ImportSource = { kind: 'export'; text: string } | { kind: 'secret'; secret: string };

/**
 * A JSON object is an export document; anything else must be one key on one line. A key that merely
 * starts with "{" is still a key, since it will not parse as JSON.
 */
function classifyImport(text: string, source: string): ImportSource {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch {
      doc = undefined;
    }
    if (doc !== null && typeof doc === 'object') {
      if ((doc as { format?: unknown }).format !== EXPORT_FORMAT) {
        throw new InputError(
          `${source} is JSON but not a RateDesk key export (format must be "${EXPORT_FORMAT}").`,
        );
      }
      return { kind: 'export', text: trimmed };
    }
  }
  if (trimmed === '') throw new InputError(`${source} is empty: give one key on one line.`);
  if (/[\r\n]/.test(trimmed))
    throw new InputError(`${source} holds more than one line: give one key on one line.`);
  return { kind: 'secret', secret: trimmed };
}

async function keysImport(ctx: Context): Promise<Output> {
  const { file, account, name } = ctx.values;
  const interactive = file === undefined && ctx.io.stdin.isTTY === true;
  // At a terminal only a single key can follow: ask for the options before asking for the secret.
  if (interactive) {
    required(ctx, 'account', IMPORT_USAGE);
    required(ctx, 'name', IMPORT_USAGE);
  }
  const text =
    file !== undefined
      ? await readInput({ path: file }, INPUT_BOUNDS.keyImport)
      : await readSecretInput(
          ctx.io.stdin,
          ctx.io.stderr,
          'Paste the key, then press Enter (it will not be shown): ',
          INPUT_BOUNDS.keyImport,
        );
  const input = classifyImport(text, file ?? 'stdin');

  if (input.kind === 'export') {
    if (account !== undefined || name !== undefined) {
      throw new UsageError('--account and --name do not apply to an export file: each key keeps its own.');
    }
    const { imported, skipped, accounts_created } = await ctx.run('keys:import', { document: input.text });
    const created =
      accounts_created.length > 0
        ? `Created with balance 0: ${accounts_created.join(', ')}. Top them up to use their keys.\n`
        : '';
    return {
      json: { imported, skipped, accounts_created },
      text: `Imported ${imported} keys, skipped ${skipped} already present.\n${created}`,
    };
  }
  const { key } = await ctx.run('keys:import', {
    account: required(ctx, 'account', IMPORT_USAGE),
    name: required(ctx, 'name', IMPORT_USAGE),
    secret: input.secret,
  });
  return {
    json: key,
    text: `Imported key ${key!.id} ${JSON.stringify(key!.name)} (${masked(key!)}) for account ${key!.account}.\n`,
  };
}

export const keyCommands: Record<string, Command> = {
  'keys create': {
    usage: CREATE_USAGE,
    args: [0, 0],
    options: ['account', 'name'],
    run: async (ctx) => {
      const key = await ctx.run('keys:create', {
        account: required(ctx, 'account', CREATE_USAGE),
        name: required(ctx, 'name', CREATE_USAGE),
      });
      const warning =
        'This secret is shown once and will not be shown again: RateDesk keeps only its digest.';
      if (ctx.json) ctx.io.stderr.write(`warning: ${warning}\n`);
      return {
        json: key,
        text:
          `Created key ${key.id} ${JSON.stringify(key.name)} for account ${key.account}.\n\n` +
          `    ${key.secret}\n\n` +
          `${warning}\nCopy it now into the client that will use it.\n`,
      };
    },
  },
  'keys list': {
    usage: 'keys list [--account ACCOUNT]',
    args: [0, 0],
    options: ['account'],
    run: async (ctx) => {
      const { account } = ctx.values;
      const rows = await ctx.run('keys:list', account === undefined ? {} : { account });
      return { json: rows, text: rows.length === 0 ? 'No keys.\n' : keysTable(rows) };
    },
  },
  'keys revoke': {
    usage: 'keys revoke KEY_ID',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const key = await ctx.run('keys:revoke', { id: ctx.args[0]! });
      const text = key.already_revoked
        ? `Key ${key.id} was already revoked at ${key.revoked_at}.\n`
        : `Revoked key ${key.id} (${masked(key)}). Requests with it are refused from now on.\n`;
      return { json: key, text };
    },
  },
  'keys import': { usage: IMPORT_USAGE, args: [0, 0], options: ['account', 'name', 'file'], run: keysImport },
  'keys export': {
    usage: 'keys export [--account ACCOUNT] [--file F]',
    args: [0, 0],
    options: ['account', 'file'],
    run: async (ctx) => {
      const { account, file } = ctx.values;
      const { json } = await ctx.run('keys:export', account === undefined ? {} : { account });
      const doc = JSON.parse(json) as { keys: unknown[] };
      if (file === undefined) return { json: doc, text: json };
      writePrivateFile(file, json);
      return {
        json: { file: resolve(file), keys: doc.keys.length },
        text: `Wrote ${doc.keys.length} keys to ${file} (digests only, no secrets; mode 0600).\n`,
      };
    },
  },
};
