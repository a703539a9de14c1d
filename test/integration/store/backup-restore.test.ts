// The backup and restore of docs/operations.md ("Backups and restore"), as a drill: a company database that a
// real service has charged over HTTP is dumped with pg_dump -Fc while the service runs, restored with
// pg_restore into a new database, and the copy must hold the same balances, ledgers, keys and history, open
// without a refusal (its migration history restored with it) and serve on: a key answers with its balance, a
// revoked key stays refused, the next charge takes the next ids.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createKey, createAccount, revokeKey, setLimits, topup } from '../../../core/operations';
import { createRatingService, type RatingService } from '../../../core/service';
import { openPgStore } from '../../../core/store/postgres';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';
import { createEmptyDatabase, runPgTool } from '../../helpers/postgres-tools';
import { FIRST_TWO_CARRIERS, rawRequest, SHIPMENT } from '../../helpers/service';

const root = mkdtempSync(join(tmpdir(), 'ratedesk-backup-'));
const databases: string[] = [];
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url).catch(() => {});
  rmSync(root, { recursive: true, force: true });
});
const wall = { now: () => new Date() };

async function serveOn(url: string): Promise<{ service: RatingService; port: number }> {
  const service = await createRatingService({
    dataDir: join(root, 'unused'),
    database: { url },
    listen: { host: '127.0.0.1', port: 0 },
    warmUp: false,
  });
  return { service, port: service.listener!.port };
}

const post = (port: number, key: string, headers: Record<string, string> = {}) =>
  rawRequest(port, {
    method: 'POST',
    path: '/v1/rates',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(SHIPMENT),
  });
const balance = async (port: number, key: string): Promise<number> =>
  (
    (await rawRequest(port, { path: '/v1/balance', headers: { Authorization: `Bearer ${key}` } })).json as {
      balance: number;
    }
  ).balance;

it('pg_dump -Fc of a serving database, pg_restore into a new one: the same balances, and it serves on', async () => {
  const url = await createTestDatabase('backup');
  databases.push(url);
  const { service, port } = await serveOn(url);
  const store = service.store;
  let shop: string;
  let revoked: string;
  try {
    await store.settings.write(
      Object.entries(FIRST_TWO_CARRIERS).map(([name, value]) => ({ name, value })),
      new Date().toISOString(),
    );
    await createAccount(store, wall, { name: 'shop', balance: 20 });
    await topup(store, wall, { account: 'shop', requests: 500 });
    await setLimits(store, wall, { account: 'shop', rps: 100, burst: 100 });
    shop = (await createKey(store, wall, { account: 'shop', name: 'site' })).secret;
    const old = await createKey(store, wall, { account: 'shop', name: 'old' });
    await revokeKey(store, wall, { id: old.id });
    revoked = old.secret;
    for (let i = 0; i < 6; i++)
      expect((await post(port, shop, i % 2 ? { 'Idempotency-Key': `o-${i}` } : {})).status).toBe(200);

    // While the service runs: pg_dump reads one consistent snapshot.
    const dump = runPgTool('pg_dump', ['--format=custom', '--dbname', url]);
    expect(dump.subarray(0, 5).toString('latin1')).toBe('PGDMP');

    const restoredUrl = createEmptyDatabase('restored');
    databases.push(restoredUrl);
    runPgTool(
      'pg_restore',
      ['--exit-on-error', '--single-transaction', '--no-owner', '--dbname', restoredUrl],
      dump,
    );

    const original = await openPgStore(url);
    const restored = await openPgStore(restoredUrl);
    try {
      expect(await restored.deskFigures()).toEqual(await original.deskFigures());
      expect(await restored.accounts.list()).toEqual(await original.accounts.list());
      expect(await restored.keys.list()).toEqual(await original.keys.list());
      expect(await restored.quotes.search('', 100)).toEqual(await original.quotes.search('', 100));
      expect(await restored.settings.all()).toEqual(await original.settings.all());
      expect(await restored.accounts.invariantViolations()).toEqual([]);
    } finally {
      await original.close();
      await restored.close();
    }
  } finally {
    await service.close();
  }

  const before = (await openPgStoreBalances(url)).get('shop')!;
  const copy = await serveOn(databases[1]!);
  try {
    expect(await balance(copy.port, shop)).toBe(before);
    expect((await post(copy.port, revoked)).status).toBe(401);
    // The ledger's and history's counters came back with their tables: the next charge just takes the next id.
    expect((await post(copy.port, shop)).status).toBe(200);
    expect(await balance(copy.port, shop)).toBe(before - 1);
    expect(await copy.service.store.accounts.invariantViolations()).toEqual([]);
  } finally {
    await copy.service.close();
  }
}, 120_000);

async function openPgStoreBalances(url: string): Promise<Map<string, number>> {
  const store = await openPgStore(url);
  try {
    return new Map((await store.accounts.list()).map((a) => [a.name, a.balance]));
  } finally {
    await store.close();
  }
}
