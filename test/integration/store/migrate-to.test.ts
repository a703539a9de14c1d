// admin migrate-to (#19 item 5): a desk's data folder, made by the real service and operations, moved into a
// fresh database of the run's PostgreSQL cluster, then compared through both stores' ports and used by a real
// service on the company database. Also: a second run is refused, a failure halfway leaves the database
// empty, the desk's file is never changed, and the admin command's output and exit codes.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS } from '../../../core/api/idempotency';
import { createRatingService } from '../../../core/service';
import { plainSecrets, type SecretStore } from '../../../core/settings/secrets';
import { openCompanyStore } from '../../../core/store/company';
import { dataFilePath, openDataFolder } from '../../../core/store/data-folder';
import { DESK_TABLES, TargetNotEmptyError, type DeskFigures } from '../../../core/store/desk-copy';
import { migrateDeskTo, type MigrateToReport } from '../../../core/store/migrate-to';
import type { Store } from '../../../core/store/port';
import { openPgStore, type PgStore } from '../../../core/store/postgres';
import { openReadOnly } from '../../helpers/data-file';
import { buildDesk, DESK_DEVICE_TOKEN_DIGEST, type BuiltDesk } from '../../helpers/desk-builder';
import { createTestDatabase, dropTestDatabase, terminateRateDeskConnections } from '../../helpers/postgres';
import { rawRequest, SHIPMENT } from '../../helpers/service';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');

let root: string;
let desk: BuiltDesk;
const databases: string[] = [];

async function newDatabase(): Promise<string> {
  const url = await createTestDatabase('migrate');
  databases.push(url);
  return url;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ratedesk-migrate-to-'));
  desk = await buildDesk(join(root, 'desk'));
}, 120_000);

afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url).catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

const migrate = (url: string, extra: Partial<Parameters<typeof migrateDeskTo>[0]> = {}) =>
  migrateDeskTo({ dataDir: desk.dir, url, idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS, ...extra });

function fileDigest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

async function withStores<T>(url: string, fn: (d: Store, c: PgStore) => Promise<T>): Promise<T> {
  const d = openReadOnly(desk.dir);
  const c = await openPgStore(url);
  try {
    return await fn(d, c);
  } finally {
    await d.close();
    await c.close();
  }
}

const byCode = <T extends { code: string }>(rows: T[]) =>
  [...rows].sort((a, b) => a.code.localeCompare(b.code));
const zero = (): DeskFigures['rows'] =>
  Object.fromEntries(DESK_TABLES.map((t) => [t, 0])) as DeskFigures['rows'];

describe('migrate-to', () => {
  let url: string;
  let report: MigrateToReport;

  beforeAll(async () => {
    url = await newDatabase();
    const file = dataFilePath(desk.dir);
    const before = { digest: fileDigest(file), mtime: statSync(file).mtimeMs };
    report = await migrate(url);
    // Opened read-only and read in one snapshot: not a byte of the desk's file changed, and nothing went
    // into its log (SQLite creates an empty -wal and the -shm index for any reader of a WAL file).
    expect(fileDigest(file)).toBe(before.digest);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
    expect(statSync(`${file}-wal`).size).toBe(0);
  }, 60_000);

  it('moves every row of what it moves, and says what it left behind', () => {
    expect(report.company).toEqual(report.desk);
    expect(report.desk.rows).toMatchObject({
      accounts: 4,
      api_keys: 4,
      rate_limit_overrides: 2, // acme's, and the generous one the test service gives `default`
      idempotency: 4,
      quotes: 10, // 9 answered over /v1 (one past retention, whose history stays) and one of the desk's window
      carrier_health: 2,
      location_cache: 2,
      rate_cards: 2,
      rate_card_rows: 340,
      fivepost_catalogues: 1,
      fivepost_points: 3,
      users: 1,
      devices: 1,
      warehouses: 1,
      // One entry the builder writes itself, 13 its admin operations wrote through withAudit (#20).
      audit: 14,
      pricing_rules: 2,
    });
    expect(report.desk.rows.notifications).toBeGreaterThanOrEqual(1);
    expect(report.leftBehind).toEqual({
      idempotency_expired: 1,
      location_cache_expired: 1,
      rate_cards_hidden: 0,
      rate_card_rows_hidden: 0,
    });
    expect(report.settings.skipped).toEqual([
      { name: 'carriers.cdek.client_secret', reason: 'no_server_key' },
      { name: 'carriers.dpd.client_key', reason: 'sealed' },
      { name: 'server_key.check', reason: 'unknown' },
    ]);
    for (const a of report.company.accounts) expect(a.balance).toBe(a.ledger_sum);
  });

  it('reads back the same through both stores’ ports', async () => {
    await withStores(url, async (d, c) => {
      expect(await c.accounts.list()).toEqual(await d.accounts.list());
      expect(await c.accounts.invariantViolations()).toEqual([]);
      const keys = await c.keys.list();
      expect(keys).toEqual(await d.keys.list());
      expect(keys.filter((k) => k.revoked_at !== null)).toHaveLength(1);
      expect(await c.quotes.search('', 1_000)).toEqual(await d.quotes.search('', 1_000));
      expect(await c.quotes.search('Тула')).toEqual(await d.quotes.search('Тула'));
      expect(await c.notifications.list(1_000)).toEqual(await d.notifications.list(1_000));
      expect(byCode(await c.carrierHealth.all())).toEqual(byCode(await d.carrierHealth.all()));

      const cards = await c.rateCards.list();
      expect(cards).toEqual(await d.rateCards.list());
      for (const card of cards) {
        expect(await c.rateCards.load(card.id)).toEqual(await d.rateCards.load(card.id));
        expect(await c.rateCards.services(card.id)).toEqual(await d.rateCards.services(card.id));
      }

      const now = Date.now();
      for (const key of ['тест-город', 'неизвестно', 'давно'])
        expect(await c.locationCache.get('cdek@sim', 'cdek_city_code', key, now)).toEqual(
          await d.locationCache.get('cdek@sim', 'cdek_city_code', key, now),
        );
      expect(await c.locationCache.get('cdek@sim', 'cdek_city_code', 'неизвестно', now)).toEqual({
        value: null,
      });
      expect(await c.pickupCatalogue.meta('fivepost@sim')).toEqual(
        await d.pickupCatalogue.meta('fivepost@sim'),
      );
      for (const zip of ['420000', '101000'])
        expect(await c.pickupCatalogue.byZip('fivepost@sim', zip)).toEqual(
          await d.pickupCatalogue.byZip('fivepost@sim', zip),
        );

      const moved = new Map(await d.settings.all());
      for (const name of ['carriers.cdek.client_secret', 'carriers.dpd.client_key', 'server_key.check'])
        moved.delete(name);
      expect(await c.settings.all()).toEqual(moved);
      expect(moved.get('rating.deadline_ms')).toBe('9000');

      // Company desks (#20): users, devices (their tokens still work), warehouses, the audit log, and who
      // asked a quote from which warehouse.
      expect(await c.users.list()).toEqual(await d.users.list());
      expect(await c.users.devices()).toEqual(await d.users.devices());
      expect(await c.users.deviceAuth(DESK_DEVICE_TOKEN_DIGEST)).toMatchObject({ user_name: 'Мария' });
      expect(await c.warehouses.list()).toEqual(await d.warehouses.list());
      expect(await c.warehouses.create((await d.warehouses.list())[0]!, new Date().toISOString())).toBe(
        'taken',
      );
      const audit = { limit: 100, offset: 0 };
      expect(await c.audit.search(audit)).toEqual(await d.audit.search(audit));
      // Resale rules (#21): the desk's own and an account's, every field as it was.
      expect(await c.pricing.list()).toEqual(await d.pricing.list());
      expect(await c.pricing.list()).toEqual([
        expect.objectContaining({ account_id: null, carrier: null, markup_percent: 12.5 }),
        expect.objectContaining({
          carrier: 'cdek',
          packaging_kopecks: 3_050,
          min_kopecks: 30_000,
          rounding: '10',
        }),
      ]);
      expect(await c.quotes.search('', 100, 0, { warehouse: 'Склад Подольск' })).toEqual([
        expect.objectContaining({ request_id: 'desk-quote-1' }),
      ]);
    });
  });

  it('continues every id counter after the ids it copied', async () => {
    await withStores(url, async (_d, c) => {
      const accountIds = report.company.accounts.map((a) => a.id);
      const created = await c.accounts.create('after-move', 5, new Date().toISOString());
      expect(created.id).toBe(Math.max(...accountIds) + 1);
      // The removed card's id (3) is not given again: the next card is 4, as it would be on the desk.
      const card = await c.rateCards.replace(
        { code: 'new-card', name: 'Новая', volumetric_divisor: 5000, created_at: new Date().toISOString() },
        [],
      );
      expect(card.id).toBe(4);
      const quoteIds = (await c.quotes.search('', 1_000)).map((q) => q.id);
      const id = await c.quotes.insert({
        request_id: 'after-move',
        source: 'desk',
        created_at: new Date().toISOString(),
        from_city: 'Москва',
        to_city: 'Тверь',
        weight_grams: 100,
        cheapest_kopecks: null,
        carriers: '',
        sandbox: 1,
        shipment_json: '{}',
        result_json: '{}',
        author: null,
        warehouse: null,
      });
      expect(id).toBe(Math.max(...quoteIds) + 1);
      expect(await c.accounts.invariantViolations()).toEqual([]);
    });
  });

  it('serves the desk’s keys, balances and stored replies from the company database', async () => {
    const dir = join(root, 'unused-folder');
    const service = await createRatingService({
      dataDir: dir,
      database: { url },
      listen: { host: '127.0.0.1', port: 0 },
      warmUp: false,
    });
    try {
      const port = service.listener!.port;
      const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
        rawRequest(port, {
          method: 'POST',
          path: '/v1/rates',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      const balance = async (key: string) =>
        (await rawRequest(port, { path: '/v1/balance', headers: { Authorization: `Bearer ${key}` } }))
          .json as { balance: number };
      const acme = report.company.accounts.find((a) => a.name === 'acme')!;
      expect((await balance(desk.keys.acme)).balance).toBe(acme.balance);

      // A retry of a request the desk answered: its reply byte for byte, nothing charged.
      const replay = await post(
        desk.keys.acme,
        { ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 600 } },
        { 'Idempotency-Key': 'order-1' },
      );
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(desk.replies.get('order-1'));
      expect((await balance(desk.keys.acme)).balance).toBe(acme.balance);

      // One past retention is a new request: charged once, under new ledger and history ids.
      const fresh = await post(desk.keys.acme, SHIPMENT, { 'Idempotency-Key': desk.expiredIdempotencyKey });
      expect(fresh.status).toBe(200);
      expect((await balance(desk.keys.acme)).balance).toBe(acme.balance - 1);

      expect((await post(desk.keys.revoked, SHIPMENT)).status).toBe(401);
      expect((await post(desk.keys.low, SHIPMENT)).status).toBe(200);
      expect(await service.store.accounts.invariantViolations()).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('refuses a second run: the database is not empty, and nothing changes', async () => {
    const before = await withStores(url, (_d, c) => c.deskFigures());
    await expect(migrate(url)).rejects.toThrow(TargetNotEmptyError);
    await expect(migrate(url)).rejects.toThrow(/is not empty \(rows: accounts \d+, rate_limit_overrides \d+/);
    expect(await withStores(url, (_d, c) => c.deskFigures())).toEqual(before);
  });
});

describe('migrate-to, when it fails', () => {
  it('leaves the database empty when the connection is lost halfway', async () => {
    const url = await newDatabase();
    const seen: string[] = [];
    await expect(
      migrate(url, {
        onProgress: async (table) => {
          seen.push(table);
          // Accounts, keys and the whole ledger are written; the database goes away under the quotes.
          if (table === 'quotes') await terminateRateDeskConnections(url);
        },
      }),
    ).rejects.toThrow(/did not answer|terminat|Connection/i);
    expect(seen).toContain('ledger');
    const store = await openPgStore(url);
    try {
      expect(await store.deskFigures()).toEqual({ rows: zero(), accounts: [] });
    } finally {
      await store.close();
    }
    // And the same database takes the whole desk afterwards.
    const report = await migrate(url);
    expect(report.company).toEqual(report.desk);
  });

  it('leaves the database empty when a step throws halfway', async () => {
    const url = await newDatabase();
    await expect(
      migrate(url, {
        onProgress: (table) => {
          if (table === 'rate_card_rows') throw new Error('the operator pressed Ctrl-C');
        },
      }),
    ).rejects.toThrow('the operator pressed Ctrl-C');
    const store = await openPgStore(url);
    try {
      expect(await store.deskFigures()).toEqual({ rows: zero(), accounts: [] });
    } finally {
      await store.close();
    }
  });

  it('refuses a database a serve or admin command has opened already (its default account)', async () => {
    const url = await newDatabase();
    await (await openCompanyStore(url)).close();
    await expect(migrate(url)).rejects.toThrow(
      /is not empty \(rows: accounts 1, ledger 1\); nothing was copied\. .*run migrate-to before any serve/,
    );
  });

  it('refuses, read-only, a desk an older RateDesk wrote until this one has opened it', async () => {
    const dir = join(root, 'desk-v3');
    mkdirSync(dir);
    const fixture = resolve(import.meta.dirname, '../../fixtures/data-folder-v3/ratedesk.db.gz');
    writeFileSync(dataFilePath(dir), gunzipSync(readFileSync(fixture)), { mode: 0o600 });
    const before = fileDigest(dataFilePath(dir));
    const url = await newDatabase();
    await expect(
      migrateDeskTo({ dataDir: dir, url, idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS }),
    ).rejects.toThrow(
      /has schema v3, older than this RateDesk's v\d+, and migrate-to opens it read-only: open it once/,
    );
    expect(fileDigest(dataFilePath(dir))).toBe(before);

    await openDataFolder(dir).close();
    const report = await migrateDeskTo({
      dataDir: dir,
      url,
      idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS,
    });
    expect(report.company).toEqual(report.desk);
    expect(report.desk.rows.accounts).toBeGreaterThan(0);
  });

  it('refuses a desk someone is serving', async () => {
    // The lock of a live process that is not this one (servingPid ignores its caller's own lock).
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    const lock = join(desk.dir, 'serve.lock');
    try {
      writeFileSync(lock, String(child.pid));
      await expect(migrate(await newDatabase())).rejects.toThrow(
        new RegExp(`a RateDesk \\(pid ${child.pid}\\) is serving .*: stop it`),
      );
    } finally {
      rmSync(lock, { force: true });
      child.kill();
    }
  });
});

describe('migrate-to with a store that seals secrets', () => {
  // Stands in for the server key's SecretStore (#19 item 3): a value it sealed is not plain text.
  const sealing: SecretStore = {
    encrypting: true,
    seal: (plain) => `tst:${Buffer.from(plain, 'utf8').toString('base64')}`,
    open: (stored, name) =>
      stored.startsWith('tst:')
        ? Buffer.from(stored.slice(4), 'base64').toString('utf8')
        : plainSecrets.open(stored, name),
  };

  it('moves a plain secret sealed with it, and still not one the desktop keychain sealed', async () => {
    const url = await newDatabase();
    const report = await migrate(url, { secrets: sealing });
    expect(report.settings.sealed).toBe(1);
    expect(report.settings.skipped.map((s) => s.name)).toEqual([
      'carriers.dpd.client_key',
      'server_key.check',
    ]);
    const sealed = await openPgStore(url, { secrets: sealing });
    const raw = await openPgStore(url);
    try {
      expect(await sealed.settings.get('carriers.cdek.client_secret')).toBe('plain-cdek-secret');
      expect(await raw.settings.get('carriers.cdek.client_secret')).toMatch(/^tst:/);
    } finally {
      await sealed.close();
      await raw.close();
    }
  });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

const SERVER_KEY = randomBytes(32).toString('base64');

function admin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      // A company database needs a server key with --database or RATEDESK_DATABASE_URL: one for these runs.
      env: {
        ...process.env,
        RATEDESK_DATA_DIR: '',
        RATEDESK_DATABASE_URL: '',
        RATEDESK_SERVER_KEY: SERVER_KEY,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

describe('admin migrate-to (child process)', () => {
  it('prints the figures of both sides, then refuses a second run with exit 1', async () => {
    const url = await newDatabase();
    const first = await admin(['--data-dir', desk.dir, 'migrate-to', url]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Copied the desk .*ratedesk\.db into postgres:\/\/ratedesk@127\.0\.0\.1:\d+\//,
    );
    expect(first.stdout).toMatch(/^TABLE +DESK +COMPANY$/m);
    expect(first.stdout).toMatch(/^rate_card_rows +340 +340$/m);
    expect(first.stdout).toMatch(/^ledger +(\d+) +\1$/m);
    expect(first.stdout).toMatch(/^acme \(id \d+\) +(\d+) +\1 +\1$/m);
    expect(first.stdout).toContain('carriers.dpd.client_key: sealed by the desktop app');
    // With the server key given (RATEDESK_SERVER_KEY), the desk's plain secret moves, sealed with it.
    expect(first.stdout).not.toContain('carriers.cdek.client_secret: a secret');

    const again = await admin(['--data-dir', desk.dir, 'migrate-to', url]);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      /^error: the company database postgres:\/\/.* is not empty \(rows: accounts 4, /,
    );
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('takes the database from RATEDESK_DATABASE_URL, and prints one JSON document with --json', async () => {
    const url = await newDatabase();
    const r = await admin(['--data-dir', desk.dir, '--json', 'migrate-to'], { RATEDESK_DATABASE_URL: url });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as MigrateToReport;
    expect(report.company).toEqual(report.desk);
    expect(report.target).not.toContain('@127.0.0.1:0');
  }, 60_000);

  it('answers usage errors with exit 2 and a desk being served with exit 1', async () => {
    const none = await admin(['--data-dir', desk.dir, 'migrate-to']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: no company database given/);
    const notUrl = await admin(['--data-dir', desk.dir, 'migrate-to', 'mysql://x/y']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toMatch(/must be a postgres:\/\/ URL/);
    const twice = await admin(['--database', 'postgres://a/b', 'migrate-to', 'postgres://c/d']);
    expect(twice.code).toBe(2);

    const unreachable = await admin([
      '--data-dir',
      desk.dir,
      'migrate-to',
      'postgres://ratedesk:pw@127.0.0.1:1/x',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^error: cannot open the company database postgres:\/\/ratedesk@127\.0\.0\.1:1\/x \(.*ECONNREFUSED.*\); nothing was copied\n$/,
    );

    const missing = await admin([
      '--data-dir',
      join(root, 'no-such-desk'),
      'migrate-to',
      await newDatabase(),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: there is no desk data file at .*no-such-desk/);

    const lock = join(desk.dir, 'serve.lock');
    writeFileSync(lock, String(process.pid));
    try {
      const served = await admin(['--data-dir', desk.dir, 'migrate-to', await newDatabase()]);
      expect(served.code).toBe(1);
      expect(served.stderr).toMatch(new RegExp(`^error: a RateDesk \\(pid ${process.pid}\\) is serving`));
    } finally {
      rmSync(lock, { force: true });
    }
  }, 60_000);
});
