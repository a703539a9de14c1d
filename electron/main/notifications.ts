// Low balance: a native desktop notification, so it is seen while the window is in the background. The
// in-app banner and this notification both come from the same 'balance:low' desk event the window gets
// (from the local service, or the company server in company mode), so they never disagree.
import type { LowBalanceEvent } from '../../core/store/port';
import { accountLabel } from '../../core/contract/account-name';

/** The parts of Electron's Notification class used here. */
export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}
export interface NotificationFactory {
  isSupported(): boolean;
  create(options: { title: string; body: string }): NotificationLike;
}

export type Language = 'ru' | 'en';

/** Russian picks the noun form by the number's ending: 1 запрос, 2 запроса, 5 запросов, 11 запросов. */
export function requestsRu(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  const form =
    mod10 === 1 && mod100 !== 11
      ? 'запрос'
      : mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)
        ? 'запроса'
        : 'запросов';
  return `${n.toLocaleString('ru-RU')} ${form}`;
}

export function lowBalanceText(e: LowBalanceEvent, language: Language): { title: string; body: string } {
  if (language === 'en') {
    return {
      title: 'RateDesk: balance running low',
      body: `Account ${accountLabel(e.accountName, 'en')}: ${e.balance.toLocaleString('en-US')} request${e.balance === 1 ? '' : 's'} left (alert at ${e.threshold.toLocaleString('en-US')}). Top it up under Balance.`,
    };
  }
  return {
    title: 'RateDesk: заканчиваются запросы',
    body: `Аккаунт ${accountLabel(e.accountName, 'ru')}: осталось ${requestsRu(e.balance)} (порог ${e.threshold.toLocaleString('ru-RU')}). Пополните баланс в разделе «Баланс».`,
  };
}

/** The desk event (local service or company server, #20) as the notifier's input; the id is not shown. */
export function lowBalanceFromDesk(e: {
  account: string;
  threshold: number;
  balance: number;
  at: string;
}): LowBalanceEvent {
  return { accountId: 0, accountName: e.account, threshold: e.threshold, balance: e.balance, at: e.at };
}

export interface LowBalanceNotifierOptions {
  notifications: NotificationFactory;
  language: () => Language;
  /** Brings the window forward when the notification is clicked. */
  onClick: () => void;
}

/** Returns the listener for the service's 'low-balance' event. */
export function lowBalanceNotifier(options: LowBalanceNotifierOptions): (e: LowBalanceEvent) => void {
  return (e) => {
    // Linux without a notification daemon, for instance: the in-app banner still shows.
    if (!options.notifications.isSupported()) return;
    const n = options.notifications.create(lowBalanceText(e, options.language()));
    n.on('click', options.onClick);
    n.show();
  };
}
