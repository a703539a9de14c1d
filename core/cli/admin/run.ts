// The admin CLI's runner: parse the command line, find the command in the table, run it on the data folder,
// print one answer (text, or exactly one JSON document with --json) or one error line.
import { homedir, userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { systemWallClock, type Actor } from '../../operations/context';
import { isOperationError } from '../../operations/errors';
import { runStore } from '../../operations/store-operations';
import { prepareSecrets } from '../../settings/secrets';
import { loadServerKey, ServerKeyError } from '../../settings/server-key';
import { serverSecrets, type ServerSecretStore } from '../../settings/server-secrets';
import { databaseUrlFrom, openCompanyStore } from '../../store/company';
import { defaultDataDir, openDataFolder, type PlatformEnv } from '../../store/data-folder';
import type { Store } from '../../store/port';
import { InputError, UsageError } from '../admin-io';
import { accountCommands } from './accounts';
import { auditCommands } from './audit';
import { calendarCommands } from './calendar';
import { carrierCommands } from './carriers';
import { OPTIONS, type AdminIo, type Command, type Context, type OptionName, type Values } from './command';
import { keyCommands } from './keys';
import { pricingCommands } from './pricing';
import { migrateCommands } from './migrate-to';
import { quoteFileCommands } from './quote-file';
import { rateCardCommands } from './ratecards';
import { serverKeyCommands } from './server-key';
import { settingCommands } from './settings';
import { userCommands } from './users';
import { warehouseCommands } from './warehouses';

export type { AdminIo } from './command';

export const USAGE = `Usage: npm run admin -- [--data-dir DIR | --database URL] [--json] <command>

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

Carriers
  carriers list
  carriers set CODE [--enabled on|off] [--endpoint production|test|simulator|custom]
                    [--base-url URL] [--timeout-ms N] [--client-id ID]
  carriers secret CODE                          (the secret is read from stdin, never from arguments)
  carriers check CODE [--endpoint production|test|simulator|custom] [--step-timeout-ms N]
                                                (a live check: auth, directory, answer sizes, one route,
                                                 each step timed; exit 1 when a step fails)

Rate cards (carriers without an API, quoted from a CSV of contract prices)
  ratecards list
  ratecards import --code CODE --name NAME --file F [--volumetric-divisor N]
                                                (replaces a card of the same code; a bad file is refused
                                                 whole, its first 100 problems listed)
  ratecards remove CODE

Bulk quoting (a day's shipments from a spreadsheet; docs/operations.md "Bulk quoting")
  quote-file IN --out OUT [--account NAME] [--format csv|xlsx]
                                                (quotes every row of a CSV or XLSX file, paced by the
                                                 account's rate limit; progress on stderr; exit 1 when a row
                                                 was bad or got no rate, each listed with its row number)

Server key (seals carrier secrets in a shared database; docs/operations.md)
  server-key new [--file F]                     (32 random bytes in base64; F is created with mode 0600)
  server-key check                              (whether the given key opens the stored secrets)
  server-key rotate --new-key-file F            (reseals every stored secret with the key in F)
  server-key forget                             (a lost key: clears the secrets sealed with it)

Company desks: users, devices, warehouses, the audit log (docs/operations.md)
  users list
  users add NAME --role clerk|admin
  users set-role NAME --role clerk|admin
  users disable NAME | users enable NAME        (a disabled user's desks are refused from their next call)
  users remove NAME                             (with their devices; History and the audit log keep the name)
  users enrol NAME [--ttl MINUTES]              (prints a one-time code for the user's desk; 15 min by
                                                 default, 1440 at most; an earlier unused code stops working)
  devices list [--user NAME]
  devices revoke ID                             (the device's next call is refused)
  warehouses list
  warehouses add NAME --city CITY [--postal-code NNNNNN] [--address TEXT]
                 [--carriers a,b] [--boxes NAME:LxWxH,…]
  warehouses update ID [--name NAME] [--city CITY] [--postal-code NNNNNN|none] [--address TEXT]
                 [--carriers a,b|none] [--boxes NAME:LxWxH,…|none]
  warehouses remove ID                          (quotes made from it keep its name)
  audit [--actor NAME] [--action OPERATION|AREA] [--from DATE] [--to DATE] [--limit N] [--csv]
                                                (who changed what, newest first; --csv writes the file the
                                                 desk exports, in its language, to stdout)

Production calendar (the days delivery dates are counted over; docs/operations.md)
  calendar info                                 (years known, where each comes from, which are imported)
  calendar import FILE                          (one year as JSON: {year, source, days_off, working_days};
                                                 it overrides the shipped year from the next quote)

Resale prices: the customer's price beside the carrier's (docs/operations.md, "Resale prices")
  pricing list
  pricing set (--account NAME | --desk) [--carrier CODE] [--percent P] [--add RUB]
              [--packaging RUB] [--min RUB] [--max RUB] [--round 1|5|10|none]
                                                (the whole rule of that account, or of the desk's own
                                                 quotes, for CODE or every carrier; left out: none)
  pricing remove (--account NAME | --desk) [--carrier CODE]

Settings and notifications
  settings get [NAME]
  settings set NAME [VALUE]                     (secret settings: VALUE is read from stdin)
  settings reset NAME
  notifications list [--limit N]

Company server (docs/operations.md)
  migrate-to [postgres://…]                     (copies the desk of --data-dir into a new, empty company
                                                 database, default --database; the desk is only read)

Options
  --data-dir DIR   data folder (default: RATEDESK_DATA_DIR or the OS app-data folder)
  --database URL   a company database instead (postgres://…; RATEDESK_DATABASE_URL too)
  --server-key-file FILE
                   the server key that seals carrier secrets (also RATEDESK_SERVER_KEY_FILE, or
                   RATEDESK_SERVER_KEY holding the base64 itself; docs/operations.md, "The server key");
                   required with --database
  --json           print exactly one JSON document on stdout
  -h, --help       this text
`;

const COMMANDS: Record<string, Command> = {
  ...accountCommands,
  ...keyCommands,
  ...carrierCommands,
  ...rateCardCommands,
  ...settingCommands,
  ...userCommands,
  ...warehouseCommands,
  ...pricingCommands,
  ...auditCommands,
  ...serverKeyCommands,
  ...migrateCommands,
  ...quoteFileCommands,
  ...calendarCommands,
};

const GLOBAL_OPTIONS: OptionName[] = ['data-dir', 'database', 'json', 'help', 'server-key-file'];

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
    // Most commands are two words (accounts list); a few are one (migrate-to URL).
    const words = Object.hasOwn(COMMANDS, positionals[0]!) ? 1 : 2;
    const name = positionals.slice(0, words).join(' ');
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}". Run "admin help" for the list.`);
    checkShape(command, positionals.slice(words), values);

    const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(platformEnv(io));
    const clock = io.clock ?? systemWallClock;
    const databaseUrl = parseDatabaseUrl(values.database, io.env ?? process.env);
    if (databaseUrl && values['data-dir'] && !command.readsDeskWritesDatabase)
      throw new UsageError('--data-dir and --database exclude each other: the store is one or the other');
    let secrets: ServerSecretStore | undefined;
    const runSecrets = (): ServerSecretStore =>
      (secrets ??= serverSecrets(
        loadServerKey({
          flag: values['server-key-file'],
          env: io.env ?? process.env,
          // A shared database must never hold carrier secrets in plain text.
          ...(databaseUrl ? { required: 'A company database (--database)' } : {}),
        }),
      ));
    // A command opens the store for itself only, and closes it before the process exits.
    const withSecrets = async <T>(
      storeSecrets: ServerSecretStore,
      prepare: boolean,
      work: (store: Store) => Promise<T>,
    ): Promise<T> => {
      const store = databaseUrl
        ? await openCompanyStore(databaseUrl, { clock, secrets: storeSecrets })
        : openDataFolder(dataDir, { clock, open: { secrets: storeSecrets } });
      try {
        // As at a service's start: a missing or wrong server key is refused before anything is read.
        if (prepare) await prepareSecrets(store.settings, storeSecrets, clock.now().toISOString());
        return await work(store);
      } finally {
        await store.close();
      }
    };
    const ctx: Context = {
      args: positionals.slice(words),
      dataDir,
      databaseUrl,
      values,
      json: values.json === true,
      io,
      run: (operation, input) =>
        withSecrets(runSecrets(), true, (store) =>
          runStore({ store, clock, actor: cliActor(io) }, operation, input),
        ),
      withStore: (work) => withSecrets(runSecrets(), true, work),
      secrets: runSecrets,
      withSecrets: (storeSecrets, work) => withSecrets(storeSecrets, false, work),
    };
    const out = await command.run(ctx);
    io.stdout.write(ctx.json ? `${JSON.stringify(out.json, null, 2)}\n` : out.text);
    return out.exitCode ?? 0;
  } catch (error) {
    return report(error, io.stderr);
  }
}

function report(error: unknown, stderr: Writable): number {
  if (error instanceof UsageError) {
    stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  if (isOperationError(error) || error instanceof InputError || error instanceof ServerKeyError) {
    stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  // Anything else is unexpected (a locked or unreadable data file, a bug): still one line, still exit 1.
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(`error: ${message.split('\n')[0]}\n`);
  return 1;
}

/** The audit log names the CLI by the OS user who ran it (the account on the server, not a desk user). */
function cliActor(io: AdminIo): Actor {
  const env = io.env ?? process.env;
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    // A container's uid without a passwd entry has no name: the environment's, if any.
    name = env.USER ?? env.USERNAME ?? '';
  }
  return { kind: 'cli', name };
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

function parseDatabaseUrl(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  try {
    return databaseUrlFrom(flag, env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
