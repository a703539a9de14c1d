import { describe, expect, it } from 'vitest';
import { OperationError, listNotifications } from '../../../../core/operations';
import { freshFolder } from '../../../helpers/store-fixtures';

describe('listNotifications', () => {
  it('lists newest first, limited, with the account name', () => {
    const { store, clock } = freshFolder();
    const id = store.accounts.byName('default')!.id;
    store.tx(() => {
      for (let i = 0; i < 5; i++)
        store.notifications.insertInTx(id, 100, 100 - i, `2025-03-0${i + 1}T00:00:00.000Z`);
    });
    const rows = listNotifications(store, clock, { limit: 2 });
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
    expect(listNotifications(store, clock)).toHaveLength(5);
  });

  it('bounds the limit', () => {
    const { store, clock } = freshFolder();
    for (const limit of [0, 1001, 2.5]) {
      expect(() => listNotifications(store, clock, { limit })).toThrow(OperationError);
    }
  });
});
