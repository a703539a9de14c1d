// The low-balance notification log, newest first.
import { z } from 'zod';
import type { Store } from '../store';
import type { NotificationRow } from '../store/notifications';
import { parseInput, type WallClock } from './common';

export const ListNotificationsInput = z
  .strictObject({ limit: z.number().int('must be a whole number').min(1).max(1000).default(50) })
  .optional();

export interface NotificationView {
  id: number;
  account: string;
  kind: NotificationRow['kind'];
  threshold: number;
  /** Balance at the moment the threshold was crossed. */
  balance: number;
  created_at: string;
}

export function listNotifications(
  store: Store,
  _clock: WallClock,
  input?: z.input<typeof ListNotificationsInput>,
): NotificationView[] {
  const limit = parseInput(ListNotificationsInput, input)?.limit ?? 50;
  return store.notifications.list(limit).map((n) => ({
    id: n.id,
    account: n.account_name,
    kind: n.kind,
    threshold: n.threshold,
    balance: n.balance,
    created_at: n.created_at,
  }));
}
