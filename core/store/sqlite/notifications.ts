import type { NotificationRow } from '../port';
import type { Db } from './open';

export function notificationsRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO notifications (account_id, kind, threshold, balance, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const list = db.prepare<[number], NotificationRow>(`
    SELECT n.id, n.account_id, a.name AS account_name, n.kind, n.threshold, n.balance, n.created_at
    FROM notifications n JOIN accounts a ON a.id = n.account_id ORDER BY n.id DESC LIMIT ?`);
  return {
    insertInTx(accountId: number, threshold: number, balance: number, now: string): number {
      return (insert.get(accountId, 'low_balance', threshold, balance, now) as { id: number }).id;
    },
    list: (limit = 200): NotificationRow[] => list.all(limit),
  };
}

export type NotificationsRepo = ReturnType<typeof notificationsRepo>;
