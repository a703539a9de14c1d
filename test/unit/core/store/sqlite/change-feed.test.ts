// The SQLite change feed (core/store/sqlite/change-feed.ts): this store's own writes reach the subscribers by
// topic, before the caller hears back; a commit by another connection (the admin CLI) is seen by the next
// poll(), or the first beginRequest() of the next batch of requests, as a change of every topic; within one
// batch data_version is read once. It replaces ChangeWatch, which patched better-sqlite3's prepare/exec/
// transaction to count writes: the store now names what it wrote.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CHANGE_TOPICS, openStore, type ChangeTopic, type SqliteStore } from '../../../../../core/store';
import { SqliteChangeFeed } from '../../../../../core/store/sqlite/change-feed';
import type { Db } from '../../../../../core/store/sqlite/open';
import { DATA_FILE_NAME } from '../../../../../core/store/data-folder';
import { freshFolder } from '../../../../helpers/store-fixtures';

const NOW = '2025-03-01T10:00:00.000Z';
const EVERY_TOPIC = [...CHANGE_TOPICS].sort();

/** What a subscriber heard, each announcement as its sorted topics. */
function listen(store: SqliteStore): { heard: ChangeTopic[][]; unsubscribe: () => void } {
  const heard: ChangeTopic[][] = [];
  const unsubscribe = store.changes.subscribe((topics) => heard.push([...topics].sort()));
  return { heard, unsubscribe };
}

/** The data folder's store, and a second store on the same file standing for the admin CLI. */
function twoProcesses(): { store: SqliteStore; other: SqliteStore } {
  const { store, dir } = freshFolder();
  const other = openStore(join(dir, DATA_FILE_NAME));
  return { store, other };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const key = (accountId: number) => ({
  id: 'key-1',
  account_id: accountId,
  name: 'laptop',
  digest: 'a'.repeat(64),
  prefix: 'rd_live_',
  last_four: 'abcd',
  origin: 'created' as const,
  created_at: NOW,
  last_used_at: null,
  revoked_at: null,
});

describe('SqliteChangeFeed', () => {
  it('reads announce nothing; each write of this store announces its topics', async () => {
    const { store } = freshFolder();
    const { heard } = listen(store);
    const account = (await store.accounts.byName('default'))!;
    await store.accounts.list();
    await store.keys.list();
    await store.settings.all();
    await store.rateCards.versions();
    expect(heard).toEqual([]);

    await store.accounts.topup(account.id, 5, NOW);
    expect(heard).toEqual([['accounts']]);
    await store.keys.insert(key(account.id), (a, b) => a === b);
    expect(heard.slice(1)).toEqual([['keys']]);
    await store.keys.revoke('key-1', NOW);
    expect(heard.slice(2)).toEqual([['keys']]);
    await store.settings.write([{ name: 'desk.theme', value: 'dark' }], NOW);
    expect(heard.slice(3)).toEqual([['settings']]);
    await store.rateCards.replace({ code: 'c', name: 'C', volumetric_divisor: 5000, created_at: NOW }, [
      {
        line: 2,
        from: { kind: 'any' },
        to: { kind: 'any' },
        maxWeightGrams: 1000,
        priceKopecks: 100,
        daysMin: 1,
        daysMax: 2,
        deliveryType: 'door',
        serviceCode: null,
        serviceName: null,
        declaredValueBp: 0,
      },
    ]);
    expect(heard.slice(4)).toEqual([['rate_cards']]);
  });

  it('subscribers hear of a write before its caller does', async () => {
    const { store } = freshFolder();
    const order: string[] = [];
    store.changes.subscribe((topics) => order.push([...topics].join()));
    const account = (await store.accounts.byName('default'))!;
    await store.accounts.setLimits(account.id, 7, 9, NOW).then(() => order.push('settled'));
    expect(order).toEqual(['accounts', 'settled']);
  });

  it('a commit by another connection is seen by the next poll(), as a change of every topic', async () => {
    const { store, other } = twoProcesses();
    try {
      const { heard } = listen(store);
      store.changes.poll();
      expect(heard).toEqual([]);
      await other.settings.write([{ name: 'desk.theme', value: 'dark' }], NOW);
      // Not pushed: nothing of this connection looked yet.
      expect(heard).toEqual([]);
      store.changes.poll();
      expect(heard).toEqual([EVERY_TOPIC]);
      store.changes.poll();
      expect(heard).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('within one batch of requests data_version is read once; the next batch reads it again', async () => {
    const { store, other } = twoProcesses();
    try {
      const { heard } = listen(store);
      store.changes.beginRequest();
      await other.settings.write([{ name: 'desk.theme', value: 'dark' }], NOW);
      // Same poll batch: requests in it were all readable before the commit (see the class comment).
      store.changes.beginRequest();
      store.changes.poll();
      expect(heard).toEqual([]);
      await nextTurn();
      store.changes.beginRequest();
      expect(heard).toEqual([EVERY_TOPIC]);
    } finally {
      await other.close();
    }
  });

  it('reads PRAGMA data_version once per beginRequest batch, and on every poll() outside one', async () => {
    const { store } = freshFolder();
    const prepare = vi.spyOn(store.db, 'prepare');
    const feed = new SqliteChangeFeed(store.db);
    const sql = prepare.mock.calls.map(([text]) => text);
    expect(sql).toEqual(['PRAGMA data_version']);
    const statement = prepare.mock.results[0]!.value as ReturnType<Db['prepare']>;
    prepare.mockRestore();
    const reads = vi.spyOn(statement, 'get');

    feed.beginRequest();
    feed.beginRequest();
    feed.poll();
    feed.beginRequest();
    expect(reads).toHaveBeenCalledTimes(1);
    await nextTurn();
    feed.beginRequest();
    feed.beginRequest();
    expect(reads).toHaveBeenCalledTimes(2);
    await nextTurn();
    feed.poll();
    feed.poll();
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('own writes are announced even inside a batch', async () => {
    const { store } = freshFolder();
    const { heard } = listen(store);
    store.changes.beginRequest();
    const account = (await store.accounts.byName('default'))!;
    await store.accounts.topup(account.id, 1, NOW);
    expect(heard).toEqual([['accounts']]);
  });

  it('an unsubscribed listener hears nothing more; the others still do', async () => {
    const { store, other } = twoProcesses();
    try {
      const first = listen(store);
      const second = listen(store);
      const account = (await store.accounts.byName('default'))!;
      await store.accounts.topup(account.id, 1, NOW);
      first.unsubscribe();
      await store.accounts.topup(account.id, 1, NOW);
      await other.settings.write([{ name: 'desk.theme', value: 'dark' }], NOW);
      store.changes.poll();
      expect(first.heard).toEqual([['accounts']]);
      expect(second.heard).toEqual([['accounts'], ['accounts'], EVERY_TOPIC]);
    } finally {
      await other.close();
    }
  });
});
