// A real PostgreSQL server for the tests (#19 item 6): Debian's binaries, a fresh cluster in a temp directory
// on a free loopback port, torn down after. PostgreSQL refuses to run as root and CI runs as root, so there the
// cluster belongs to the unprivileged `postgres` user Debian's package creates. Never a mock: row locks,
// advisory locks and LISTEN/NOTIFY behave as on a company server.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** The server's port on 127.0.0.1. */
  readonly port: number;
  /** A connection URL for `database` (the superuser `ratedesk`, trust authentication on loopback). */
  url(database?: string): string;
  /** A new, empty database; its URL. */
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  stop(): void;
}

const SUPERUSER = 'ratedesk';

/** Debian installs each major version under /usr/lib/postgresql/<major>/bin; the newest wins. */
export function postgresBinDir(): string {
  const given = process.env.RATEDESK_PG_BIN;
  if (given) return given;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error(
      'PostgreSQL is not installed: the company-server tests need Debian\'s "postgresql" package ' +
        '(bash scripts/ensure-postgres.sh installs it), or RATEDESK_PG_BIN pointing at its bin directory',
    );
  return join(root, majors[0]!, 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the cluster's owner (the `postgres` user when we are root). */
function runAsOwner(bin: string, args: string[]): void {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0)
    throw new Error(`${bin} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export interface ClusterOptions {
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<PgCluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  runAsOwner(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    SUPERUSER,
    '-E',
    'UTF8',
    '--no-locale',
    '-N',
  ]);
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    max_connections: 300,
    ...options.settings,
  };
  let port = 0;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const flags = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    try {
      runAsOwner(join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-l',
        join(dir, 'server.log'),
        '-o',
        flags,
        '-w',
        '-t',
        '60',
        'start',
      ]);
      break;
    } catch (error) {
      // Another process took the free port between the probe and the bind: try another one.
      if (attempt >= 3) {
        const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
        throw new Error(`${(error as Error).message}\n${log.slice(-2000)}`, { cause: error });
      }
    }
  }
  let stopped = false;
  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  let counter = 0;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    async createDatabase(prefix = 't') {
      const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
      await admin((c) => c.query(`CREATE DATABASE "${name}"`));
      return url(name);
    },
    async dropDatabase(databaseUrl) {
      const name = new URL(databaseUrl).pathname.slice(1);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
