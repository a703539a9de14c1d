// `npm run admin -- [--data-dir DIR] [--json] <command>`: a thin shell over core/admin. Each run opens the
// data file, does one short transaction and closes it, so it is safe beside a running server.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import {
  AdminError,
  clearLimits,
  createAccount,
  createKey,
  defaultDataDir,
  EXPORT_FORMAT,
  exportKeys,
  getSetting,
  getSettings,
  importExport,
  importKey,
  listAccounts,
  listKeys,
  listNotifications,
  openDataFolder,
  resetSetting,
  revokeKey,
  setLimits,
  setSetting,
  setThreshold,
  systemWallClock,
  topup,
  type AccountView,
  type SetThresholdInput,
  type KeyView,
  type PlatformEnv,
  type SettingView,
  type WallClock,
} from '../admin';
import { SETTINGS, isSettingName } from '../settings/schema';
import type { Store } from '../store';
import {
  InputError,
  UsageError,
  readSecretInput,
  readTextFile,
  renderTable,
  writePrivateFile,
  type AdminStdin,
} from './admin-io';

export interface AdminIo {
  stdout: Writable;
  stderr: Writable;
  stdin: AdminStdin;
  /** Defaults to process.env (RATEDESK_DATA_DIR, APPDATA, XDG_CONFIG_HOME). */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: WallClock;
}

export const USAGE = `Usage: npm run admin -- [--data-dir DIR] [--json] <command>

Accounts
  accounts list
  accounts create NAME [--balance N]            (default balance 100, free tier)
  accounts topup ACCOUNT --requests N           (a purchased package: the account becomes paid)
  accounts limits ACCOUNT --rps R --burst B     (override the tier's rate limit)
  accounts limits ACCOUNT --clear               (back to the tier's limit)
  accounts threshold ACCOUNT 100|500|1000|auto|off

API keys
  keys create --account ACCOUNT --name NAME     (prints the secret once)
  keys list [--account ACCOUNT]
  keys revoke KEY_ID
  keys import --account ACCOUNT --name NAME [--file F]
                                                (the key is read from stdin or F, never from arguments;
                                                 F, or stdin, may also be a file written by keys export)
  keys export [--account ACCOUNT] [--file F]    (digests only, no secrets; F is written with mode 0600)

Settings and notifications
  settings get [NAME]
  settings set NAME [VALUE]                     (secret settings: VALUE is read from stdin)
  settings reset NAME
  notifications list [--limit N]

Options
  --data-dir DIR   data folder (default: RATEDESK_DATA_DIR or the OS app-data folder)
  --json           print exactly one JSON document on stdout
  -h, --help       this text
`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  balance: { type: 'string' },
  requests: { type: 'string' },
  rps: { type: 'string' },
  burst: { type: 'string' },
  clear: { type: 'boolean' },
  account: { type: 'string' },
  name: { type: 'string' },
  file: { type: 'string' },
  limit: { type: 'string' },
} as const;

type OptionName = keyof typeof OPTIONS;
type Values = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

interface Context {
  args: string[];
  values: Values;
  json: boolean;
  io: AdminIo;
  clock: WallClock;
  /** Opens the data folder for one synchronous unit of work and closes it again: nothing outlives a command. */
  withStore<T>(fn: (store: Store) => T): T;
}

interface Output {
  json: unknown;
  text: string;
}

interface Command {
  usage: string;
  /** Positional arguments after the two command words: [min, max]. */
  args: [number, number];
  options: OptionName[];
  run(ctx: Context): Output | Promise<Output>;
}

const COMMANDS: Record<string, Command> = {
  'accounts list': { usage: 'accounts list', args: [0, 0], options: [], run: accountsList },
  'accounts create': {
    usage: 'accounts create NAME [--balance N]',
    args: [1, 1],
    options: ['balance'],
    run: accountsCreate,
  },
  'accounts topup': {
    usage: 'accounts topup ACCOUNT --requests N',
    args: [1, 1],
    options: ['requests'],
    run: accountsTopup,
  },
  'accounts limits': {
    usage: 'accounts limits ACCOUNT --rps R --burst B | --clear',
    args: [1, 1],
    options: ['rps', 'burst', 'clear'],
    run: accountsLimits,
  },
  'accounts threshold': {
    usage: 'accounts threshold ACCOUNT 100|500|1000|auto|off',
    args: [2, 2],
    options: [],
    run: accountsThreshold,
  },
  'keys create': {
    usage: 'keys create --account ACCOUNT --name NAME',
    args: [0, 0],
    options: ['account', 'name'],
    run: keysCreate,
  },
  'keys list': { usage: 'keys list [--account ACCOUNT]', args: [0, 0], options: ['account'], run: keysList },
  'keys revoke': { usage: 'keys revoke KEY_ID', args: [1, 1], options: [], run: keysRevoke },
  'keys import': {
    usage: 'keys import --account ACCOUNT --name NAME [--file F]',
    args: [0, 0],
    options: ['account', 'name', 'file'],
    run: keysImport,
  },
  'keys export': {
    usage: 'keys export [--account ACCOUNT] [--file F]',
    args: [0, 0],
    options: ['account', 'file'],
    run: keysExport,
  },
  'settings get': { usage: 'settings get [NAME]', args: [0, 1], options: [], run: settingsGet },
  'settings set': { usage: 'settings set NAME [VALUE]', args: [1, 2], options: [], run: settingsSet },
  'settings reset': { usage: 'settings reset NAME', args: [1, 1], options: [], run: settingsReset },
  'notifications list': {
    usage: 'notifications list [--limit N]',
    args: [0, 0],
    options: ['limit'],
    run: notificationsList,
  },
};

const GLOBAL_OPTIONS: OptionName[] = ['data-dir', 'json', 'help'];

export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      // parseArgs explains over several lines; the contract is one line on stderr.
      const message = error instanceof Error ? error.message : String(error);
      throw new UsageError(message.split('\n').join(' '));
    }
    const { values, positionals } = parsed;
    if (values.help || positionals[0] === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('no command given. Run "admin help" for the list.');
    const name = positionals.slice(0, 2).join(' ');
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}". Run "admin help" for the list.`);
    checkShape(command, positionals.slice(2), values);

    const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(platformEnv(io));
    const clock = io.clock ?? systemWallClock;
    const ctx: Context = {
      args: positionals.slice(2),
      values,
      json: values.json === true,
      io,
      clock,
      withStore(fn) {
        const store = openDataFolder(dataDir, { clock });
        try {
          return fn(store);
        } finally {
          store.close();
        }
      },
    };
    const out = await command.run(ctx);
    io.stdout.write(ctx.json ? `${JSON.stringify(out.json, null, 2)}\n` : out.text);
    return 0;
  } catch (error) {
    return report(error, io.stderr);
  }
}

function report(error: unknown, stderr: Writable): number {
  if (error instanceof UsageError) {
    stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof AdminError || error instanceof InputError) {
    stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  // Anything else is unexpected (a locked or unreadable data file, a bug): still one line, still exit 1.
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${message.split('\n')[0]}\n`);
  return 1;
}

function platformEnv(io: AdminIo): PlatformEnv {
  const env = io.env ?? process.env;
  return { env, platform: process.platform, home: env.HOME ?? env.USERPROFILE ?? homedir() };
}

function checkShape(command: Command, args: string[], values: Values): void {
  const [min, max] = command.args;
  if (args.length < min || args.length > max) {
    throw new UsageError(`wrong number of arguments. Usage: ${command.usage}`);
  }
  for (const key of Object.keys(values) as OptionName[]) {
    if (values[key] === undefined || GLOBAL_OPTIONS.includes(key) || command.options.includes(key)) continue;
    throw new UsageError(`--${key} does not apply here. Usage: ${command.usage}`);
  }
}

function required(ctx: Context, option: 'account' | 'name' | 'requests', usage: string): string {
  const value = ctx.values[option];
  if (value === undefined) throw new UsageError(`--${option} is required. Usage: ${usage}`);
  return value;
}

/** Only the shape is checked here (a number at all); ranges are the core's job, so the UI gets the same rules. */
function numberOption(option: string, value: string): number {
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new UsageError(`--${option} must be a number, got "${value}".`);
  return Number(value);
}

// ---- accounts ---------------------------------------------------------------------------------------

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

function accountsList(ctx: Context): Output {
  const rows = ctx.withStore((s) => listAccounts(s, ctx.clock));
  return { json: rows, text: accountsTable(rows) };
}

function accountsCreate(ctx: Context): Output {
  const balance = ctx.values.balance === undefined ? undefined : numberOption('balance', ctx.values.balance);
  const account = ctx.withStore((s) => createAccount(s, ctx.clock, { name: ctx.args[0]!, balance }));
  return {
    json: account,
    text: `Created account ${account.name} (${account.tier}, balance ${account.balance}).\n`,
  };
}

function accountsTopup(ctx: Context): Output {
  const requests = numberOption('requests', required(ctx, 'requests', COMMANDS['accounts topup']!.usage));
  const account = ctx.withStore((s) => topup(s, ctx.clock, { account: ctx.args[0]!, requests }));
  return {
    json: account,
    text: `Added ${requests} requests to ${account.name}: balance ${account.balance} (${account.tier}).\n`,
  };
}

function accountsLimits(ctx: Context): Output {
  const { rps, burst, clear } = ctx.values;
  const usage = COMMANDS['accounts limits']!.usage;
  if (clear && (rps !== undefined || burst !== undefined)) {
    throw new UsageError(`--clear cannot be combined with --rps/--burst. Usage: ${usage}`);
  }
  const name = ctx.args[0]!;
  let account: AccountView;
  if (clear) {
    account = ctx.withStore((s) => clearLimits(s, ctx.clock, { account: name }));
  } else {
    if (rps === undefined || burst === undefined)
      throw new UsageError(`give both --rps and --burst. Usage: ${usage}`);
    const input = { account: name, rps: numberOption('rps', rps), burst: numberOption('burst', burst) };
    account = ctx.withStore((s) => setLimits(s, ctx.clock, input));
  }
  const { limits } = account;
  return {
    json: account,
    text: `${account.name}: ${limits.rps} requests/s, burst ${limits.burst} (${limits.source === 'tier' ? `${account.tier} tier` : 'override'}).\n`,
  };
}

function accountsThreshold(ctx: Context): Output {
  const [name, threshold] = ctx.args as [string, string];
  // The core validates the value against ThresholdValue; the cast only satisfies the typed IPC signature.
  const input = { account: name, threshold } as z.input<typeof SetThresholdInput>;
  const account = ctx.withStore((s) => setThreshold(s, ctx.clock, input));
  return { json: account, text: `${account.name}: low-balance threshold ${account.threshold}.\n` };
}

// ---- keys -------------------------------------------------------------------------------------------

function masked(k: { prefix: string; last_four: string }): string {
  return `${k.prefix}${k.last_four}`;
}

function keysCreate(ctx: Context): Output {
  const usage = COMMANDS['keys create']!.usage;
  const input = { account: required(ctx, 'account', usage), name: required(ctx, 'name', usage) };
  const key = ctx.withStore((s) => createKey(s, ctx.clock, input));
  const warning = 'This secret is shown once and will not be shown again: RateDesk keeps only its digest.';
  if (ctx.json) ctx.io.stderr.write(`warning: ${warning}\n`);
  return {
    json: key,
    text:
      `Created key ${key.id} ${JSON.stringify(key.name)} for account ${key.account}.\n\n` +
      `    ${key.secret}\n\n` +
      `${warning}\nCopy it now into the client that will use it.\n`,
  };
}

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

function keysList(ctx: Context): Output {
  const { account } = ctx.values;
  const rows = ctx.withStore((s) => listKeys(s, ctx.clock, account === undefined ? {} : { account }));
  return { json: rows, text: rows.length === 0 ? 'No keys.\n' : keysTable(rows) };
}

function keysRevoke(ctx: Context): Output {
  const key = ctx.withStore((s) => revokeKey(s, ctx.clock, { id: ctx.args[0]! }));
  const text = key.already_revoked
    ? `Key ${key.id} was already revoked at ${key.revoked_at}.\n`
    : `Revoked key ${key.id} (${masked(key)}). Requests with it are refused from now on.\n`;
  return { json: key, text };
}

type ImportSource = { kind: 'export'; doc: unknown } | { kind: 'secret'; secret: string };

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
      const format = (doc as { format?: unknown }).format;
      if (format !== EXPORT_FORMAT) {
        throw new InputError(
          `${source} is JSON but not a RateDesk key export (format must be "${EXPORT_FORMAT}").`,
        );
      }
      return { kind: 'export', doc };
    }
  }
  if (trimmed === '') throw new InputError(`${source} is empty: give one key on one line.`);
  if (/[\r\n]/.test(trimmed))
    throw new InputError(`${source} holds more than one line: give one key on one line.`);
  return { kind: 'secret', secret: trimmed };
}

async function keysImport(ctx: Context): Promise<Output> {
  const { file, account, name } = ctx.values;
  const usage = COMMANDS['keys import']!.usage;
  const interactive = file === undefined && ctx.io.stdin.isTTY === true;
  // At a terminal only a single key can follow: ask for the options before asking for the secret.
  if (interactive) {
    required(ctx, 'account', usage);
    required(ctx, 'name', usage);
  }
  const text =
    file !== undefined
      ? readTextFile(file)
      : await readSecretInput(
          ctx.io.stdin,
          ctx.io.stderr,
          'Paste the key, then press Enter (it will not be shown): ',
        );
  const input = classifyImport(text, file ?? 'stdin');

  if (input.kind === 'export') {
    if (account !== undefined || name !== undefined) {
      throw new UsageError('--account and --name do not apply to an export file: each key keeps its own.');
    }
    const result = ctx.withStore((s) => importExport(s, ctx.clock, input.doc));
    const created =
      result.accounts_created.length > 0
        ? `Created with balance 0: ${result.accounts_created.join(', ')}. Top them up to use their keys.\n`
        : '';
    return {
      json: result,
      text: `Imported ${result.imported} keys, skipped ${result.skipped} already present.\n${created}`,
    };
  }
  const keyInput = {
    account: required(ctx, 'account', usage),
    name: required(ctx, 'name', usage),
    secret: input.secret,
  };
  const key = ctx.withStore((s) => importKey(s, ctx.clock, keyInput));
  return {
    json: key,
    text: `Imported key ${key.id} ${JSON.stringify(key.name)} (${masked(key)}) for account ${key.account}.\n`,
  };
}

function keysExport(ctx: Context): Output {
  const { account, file } = ctx.values;
  const doc = ctx.withStore((s) => exportKeys(s, ctx.clock, account === undefined ? {} : { account }));
  const body = `${JSON.stringify(doc, null, 2)}\n`;
  if (file === undefined) return { json: doc, text: body };
  writePrivateFile(file, body);
  return {
    json: { file: resolve(file), keys: doc.keys.length },
    text: `Wrote ${doc.keys.length} keys to ${file} (digests only, no secrets; mode 0600).\n`,
  };
}

// ---- settings and notifications ---------------------------------------------------------------------

function settingsTable(rows: SettingView[]): string {
  return renderTable(rows, [
    { header: 'NAME', cell: (s) => s.name },
    { header: 'VALUE', cell: (s) => (s.value === '' ? '""' : s.value) },
    { header: 'SET', cell: (s) => (s.is_set ? 'yes' : '-') },
    { header: 'DEFAULT', cell: (s) => (s.default === '' ? '""' : s.default) },
  ]);
}

function settingsGet(ctx: Context): Output {
  const name = ctx.args[0];
  if (name === undefined) {
    const rows = ctx.withStore((s) => getSettings(s, ctx.clock));
    return { json: rows, text: settingsTable(rows) };
  }
  const row = ctx.withStore((s) => getSetting(s, ctx.clock, { name }));
  return { json: row, text: `${row.name} = ${row.value}${row.is_set ? '' : ' (default)'}\n` };
}

async function settingsSet(ctx: Context): Promise<Output> {
  const [name, argValue] = ctx.args as [string, string | undefined];
  const secret = isSettingName(name) && SETTINGS[name].secret;
  // argv is visible to other users (ps) and kept in shell history: secrets come from stdin only.
  if (secret && argValue !== undefined) {
    throw new UsageError(`${name} is a secret: give its value on stdin, not as an argument.`);
  }
  let value = argValue;
  if (value === undefined) {
    const text = await readSecretInput(ctx.io.stdin, ctx.io.stderr, `Value of ${name}: `);
    value = text.replace(/\r?\n$/, '').trim();
  }
  const input = { name, value };
  const row = ctx.withStore((s) => setSetting(s, ctx.clock, input));
  return { json: row, text: `${row.name} = ${row.value}${row.is_set ? '' : ' (default)'}\n` };
}

function settingsReset(ctx: Context): Output {
  const row = ctx.withStore((s) => resetSetting(s, ctx.clock, { name: ctx.args[0]! }));
  return { json: row, text: `${row.name} = ${row.value} (default)\n` };
}

function notificationsList(ctx: Context): Output {
  const limit = ctx.values.limit === undefined ? undefined : numberOption('limit', ctx.values.limit);
  const rows = ctx.withStore((s) => listNotifications(s, ctx.clock, limit === undefined ? {} : { limit }));
  const text =
    rows.length === 0
      ? 'No notifications.\n'
      : renderTable(rows, [
          { header: 'WHEN', cell: (n) => n.created_at },
          { header: 'ACCOUNT', cell: (n) => n.account },
          { header: 'KIND', cell: (n) => n.kind },
          { header: 'THRESHOLD', cell: (n) => String(n.threshold) },
          { header: 'BALANCE', cell: (n) => String(n.balance) },
        ]);
  return { json: rows, text };
}

// ---- entry point ------------------------------------------------------------------------------------

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  runAdmin(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
