// Low balance (#17 item 7). The alert is about API requests that local tools spend through /v1; quotes made
// in the desk are free. So it is not a banner over the Quote screen: the banner sits on Balance, where it
// can be acted on, the footer's request count is marked on every screen (a link to Balance), and the main
// process shows a native notification (electron/main/notifications.ts) from the same core event.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { DeskEventPayload } from '../../../core/desk/contract';
import { useDeskEvent } from '../api/hooks';
import { Banner, Button } from '../components';
import { useLang, useT } from '../i18n';
import { formatInteger } from '../lib/format';
import { useAccountLabel } from './account-name';
import { useCan } from './company';
import './low-balance.css';
import { hrefFor } from './router';

export interface LowBalanceAlert extends DeskEventPayload<'balance:low'> {
  /** «Скрыть» on the banner: the banner goes, the footer's mark stays while the balance is low. */
  dismissed: boolean;
}

interface LowBalanceState {
  alerts: readonly LowBalanceAlert[];
  dismiss: (account: string) => void;
}

const LowBalanceContext = createContext<LowBalanceState>({ alerts: [], dismiss: () => {} });

export function useLowBalance(): LowBalanceState {
  return useContext(LowBalanceContext);
}

/** Mounted once above the screens, so an alert that came while another screen was shown is not lost. */
export function LowBalanceProvider(props: { children: ReactNode }): ReactNode {
  const [alerts, setAlerts] = useState<LowBalanceAlert[]>([]);
  useDeskEvent('balance:low', (e) =>
    setAlerts((list) => [...list.filter((a) => a.account !== e.account), { ...e, dismissed: false }]),
  );
  // A top-up above the threshold clears it; a lower balance updates the number.
  useDeskEvent('balance:changed', (e) =>
    setAlerts((list) =>
      list.flatMap((a) =>
        a.account !== e.account ? [a] : e.balance > a.threshold ? [] : [{ ...a, balance: e.balance }],
      ),
    ),
  );
  const dismiss = useCallback(
    (account: string) =>
      setAlerts((list) => list.map((a) => (a.account === account ? { ...a, dismissed: true } : a))),
    [],
  );
  const value = useMemo(() => ({ alerts, dismiss }), [alerts, dismiss]);
  return <LowBalanceContext.Provider value={value}>{props.children}</LowBalanceContext.Provider>;
}

/** One strip per account that crossed its threshold (Balance screen), until dismissed or topped up. */
export function LowBalanceBanner(): ReactNode {
  const t = useT();
  const { lang } = useLang();
  const accountLabel = useAccountLabel();
  const { alerts, dismiss } = useLowBalance();
  const can = useCan();
  const shown = alerts.filter((a) => !a.dismissed);
  if (shown.length === 0) return null;
  return (
    <div data-testid="low-balance-banner">
      {shown.map((a) => (
        <Banner
          key={a.account}
          tone="warning"
          actions={
            <>
              {/* A clerk in company mode reads the balance; topping it up is the admin's (#20). */}
              {can('accounts:topup') ? (
                <Button
                  size="sm"
                  variant="primary"
                  // The banner is on Balance: «Пополнить» goes straight to that account's top-up field.
                  onClick={() =>
                    document
                      .querySelector<HTMLInputElement>(
                        `[data-testid="topup-amount-${CSS.escape(a.account)}"]`,
                      )
                      ?.focus()
                  }
                >
                  {t('common.lowBalance.action')}
                </Button>
              ) : null}
              <Button size="sm" variant="ghost" onClick={() => dismiss(a.account)}>
                {t('common.lowBalance.dismiss')}
              </Button>
            </>
          }
        >
          {t('common.lowBalance.text', {
            account: accountLabel(a.account),
            balance: formatInteger(a.balance, lang),
            count: a.balance,
          })}
        </Banner>
      ))}
    </div>
  );
}

/** Beside the footer's request count on every screen: a quiet mark and a way to Balance. */
export function LowBalanceMark(): ReactNode {
  const t = useT();
  const { alerts } = useLowBalance();
  if (alerts.length === 0) return null;
  return (
    <a href={hrefFor('balance')} className="footer-low" data-testid="footer-low-balance">
      <span aria-hidden="true">⚠ </span>
      {t('common.footer.low')}
    </a>
  );
}
