// `npm run serve -- [--data-dir DIR | --database URL] [--port N] [--host 127.0.0.1] [--allow-remote] [--no-warm-up]
// [--server-key-file FILE]`: the rating service without a window. Prints one line with the listening URL;
// stops cleanly on SIGINT/SIGTERM. `--listen HOST:PORT` and its flags: the company-network listener
// (./listen-options.ts).
import { parseArgs } from 'node:util';
import { DATABASE_URL_ENV, databaseUrlFrom } from '../store/company';
import { defaultDataDir } from '../store/data-folder';
import { createRatingService } from '../service';
import { loadServerKey } from '../settings/server-key';
import { serverSecrets } from '../settings/server-secrets';
import { takeProcessEnv } from './server-key-env';
import { consoleLogger } from '../util/logger';
import { LISTEN_ARGS, LISTEN_USAGE, parseListenArgs } from './listen-options';

const USAGE = `Usage: npm run serve -- [--data-dir DIR | --database URL] [--port N] [--host ADDRESS] [--allow-remote] [--no-warm-up]
                          [--server-key-file FILE]
       npm run serve -- [--data-dir DIR | --database URL] --listen HOST:PORT [--tls-cert FILE --tls-key FILE]
                        [--trust-proxy] [--public-host NAME]... [--no-warm-up] [--server-key-file FILE]

  --data-dir DIR   data folder (default: the OS app-data folder; RATEDESK_DATA_DIR overrides)
  --database URL   a company database instead (postgres://…; ${DATABASE_URL_ENV} too): N instances share it
  --port N         TCP port (default: the listener.port setting, 8787; 0 picks a free port)
  --host ADDRESS   bind address (default 127.0.0.1; a non-loopback address needs --allow-remote)
  --allow-remote   allow binding a non-loopback address (the API becomes reachable from the network)
  --no-warm-up     do not warm up after start: the first rates call is slower, the idle process smaller
  --server-key-file FILE
                   the key that seals carrier secrets (also RATEDESK_SERVER_KEY_FILE, or RATEDESK_SERVER_KEY
                   holding its base64; docs/operations.md, "The server key"); required with --database
${LISTEN_USAGE}`;

export async function main(argv: string[]): Promise<number> {
  const env = takeProcessEnv();
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'data-dir': { type: 'string' },
        database: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
        'no-warm-up': { type: 'boolean', default: false },
        ...LISTEN_ARGS,
        'server-key-file': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`--port must be an integer from 0 to 65535, got "${values.port}"\n`);
      return 2;
    }
  }
  let databaseUrl: string | undefined;
  try {
    databaseUrl = databaseUrlFrom(values.database, process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (databaseUrl && values['data-dir']) {
    process.stderr.write('--data-dir and --database exclude each other: the store is one or the other\n');
    return 2;
  }
  const network = parseListenArgs(values);
  if (!network.ok) {
    process.stderr.write(`ratedesk serve: ${network.message}\n`);
    return 2;
  }
  const logger = consoleLogger(process.stderr);
  // Handlers go in before anything can print the URL: a supervisor that reads the line and stops us at
  // once must get a clean shutdown, not the default signal action.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      logger.info(`${signal}: stopping`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  let service;
  let secrets;
  try {
    // Without a key, secrets stay plain text in the 0600 file as before; a database whose secrets are
    // sealed with a key is then refused at start, saying how to give it.
    // A shared database must never hold them in plain text: there the key is required.
    secrets = serverSecrets(
      loadServerKey({
        flag: values['server-key-file'],
        env,
        ...(databaseUrl ? { required: 'A company database (--database)' } : {}),
      }),
      logger,
    );
    // For tests and demos of slow carriers: a fixed delay of the sandbox simulators.
    const latency = Number(process.env.RATEDESK_SIMULATOR_LATENCY_MS ?? '0');
    // Tests of crashed instances shorten how long a dead instance's balance holds (default 2 min) and
    // idempotency claims (default 5 min) live.
    const holdLeaseMs = Number(process.env.RATEDESK_HOLD_LEASE_MS ?? '0');
    // …and how long its idempotency claims keep a retry of the same key at 409 (default 5 min).
    const idempotencyLeaseMs = Number(process.env.RATEDESK_IDEMPOTENCY_LEASE_MS ?? '0');
    service = await createRatingService({
      dataDir,
      ...(databaseUrl
        ? {
            database: {
              url: databaseUrl,
              ...(holdLeaseMs > 0 ? { holdLeaseMs, reapEveryMs: Math.max(100, holdLeaseMs / 4) } : {}),
              ...(idempotencyLeaseMs > 0 ? { idempotencyLeaseMs } : {}),
            },
          }
        : {}),
      logger,
      secrets,
      ...(latency > 0 ? { simulatorLatencyMs: latency } : {}),
      // The warm-up (core/platform/warm-up.ts) makes the first rates call as fast as the later ones, at the
      // memory a first call costs anyway (docs/benchmarks.md); an idle service that may never be asked can
      // stay small instead.
      ...(values['no-warm-up'] ? { warmUp: false } : {}),
      // Company desks (#20) reach the server through /desk/v1/ on this same listener.
      deskGateway: true,
      listen: network.listen ?? {
        ...(values.host ? { host: values.host } : {}),
        ...(port !== undefined ? { port } : {}),
        allowRemote: values['allow-remote'],
      },
    });
  } catch (err) {
    process.stderr.write(`ratedesk serve: ${(err as Error).message}\n`);
    return 1;
  }
  if (databaseUrl) logger.info('company database', { at: service.store.location });
  else logger.info('data folder', { path: dataDir });
  logger.info('carrier secrets', {
    sealed: secrets.encrypting ? 'with the server key' : 'no (plain text in the 0600 data file)',
  });
  if (service.sandbox()) {
    logger.warn(
      'SANDBOX MODE: carriers are local simulators; prices are NOT real. ' +
        // The same store as this serve: a bare command would switch the desk's own data folder instead.
        `Switch with: npm run admin -- ${databaseUrl ? '--database <the same URL> ' : ''}settings set sandbox off`,
    );
  }
  if (!service.listener) {
    logger.warn('the /v1 listener is switched off (setting listener.enabled)');
  } else {
    process.stdout.write(`${service.listener.url}\n`);
    const listener = service.listener;
    // A renewed certificate without a restart; without TLS, SIGHUP keeps its default (stop).
    if (listener.reloadTls) process.on('SIGHUP', () => listener.reloadTls?.());
  }
  await stopped;
  await service.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`ratedesk serve: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
