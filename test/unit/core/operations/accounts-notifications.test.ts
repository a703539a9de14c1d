import { describe, expect, it } from 'vitest';
import { OperationError, listNotifications } from '../../../../core/operations';
import { freshFolder } from '../../../helpers/store-fixtures';

describe('listNotifications', () => {
  it('lists newest first, limited, with the account name', async () => {
    const { store, clock } = freshFolder();
    const id = (await store.accounts.byName('default'))!.id;
    // Notifications are written by `charge` only; the fixture writes them through the SQLite repository.
    store.db.transaction(() => {
      for (let i = 0; i < 5; i++)
        store.repos.notifications.insertInTx(id, 100, 100 - i, `2025-03-0${i + 1}T00:00:00.000Z`);
    })();
    const rows = await listNotifications(store, clock, { limit: 2 });
    expect(rows).toEqual([
      {
        id: 5,
        account: 'default',
        kind: 'low_balance',
        threshold: 100,
        balance: 96,
        created_at: '2025-03-05T00:00:00.000Z',
      },
      {
        id: 4,
        account: 'default',
        kind: 'low_balance',
        threshold: 100,
        balance: 97,
        created_at: '2025-03-04T00:00:00.000Z',
      },
    ]);
    expect(await listNotifications(store, clock)).toHaveLength(5);
  });

  it('bounds the limit', async () => {
    const { store, clock } = freshFolder();
    for (const limit of [0, 1001, 2.5]) {
      await expect(listNotifications(store, clock, { limit })).rejects.toThrow(OperationError);
    }
  });
});
