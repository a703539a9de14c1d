// The app shell: top navigation, sandbox badge, language switch, the low-balance banner (on Balance only,
// app/low-balance.tsx), the footer with the default account's balance and the toasts, the shortcuts
// overlay, and a hash router over five screens. In company mode (#20) the company strip sits under the top bar
// on every screen and the top bar names who is signed in (app/CompanyBanner.tsx).
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { AppInfo } from '../../core/desk/contract';
import { call, hasDeskApi } from './api/client';
import { useDeskEvent } from './api/hooks';
import { useAccountLabel } from './app/account-name';
import { CompanyProvider, useCompany } from './app/company';
import { CompanyBanner, CompanyChip } from './app/CompanyBanner';
import { AppProvider, useApp } from './app/context';
import { LowBalanceBanner, LowBalanceMark, LowBalanceProvider } from './app/low-balance';
import { hrefFor, navigate, SCREENS, useRoute, type Screen } from './app/router';
import { ShortcutsOverlay } from './app/ShortcutsOverlay';
import { ToastProvider, ToastRegion, useToastsLeaveWith } from './components';
import { BalanceScreen } from './features/balance/BalanceScreen';
import { BulkScreen } from './features/bulk/BulkScreen';
import { CarriersScreen } from './features/carriers/CarriersScreen';
import { HistoryScreen } from './features/history/HistoryScreen';
import { QuoteScreen } from './features/quote/QuoteScreen';
import { QuoteSessionProvider } from './features/quote/session';
import { SettingsScreen } from './features/settings/SettingsScreen';
import { I18nProvider, useLang, useT, type Lang } from './i18n';
import { formatInteger } from './lib/format';

export function App(): ReactNode {
  const saveLang = useCallback((lang: Lang) => {
    if (hasDeskApi())
      void call((api) => api.settings.set({ name: 'ui.language', value: lang })).catch(() => {});
  }, []);
  return (
    <I18nProvider onChange={saveLang}>
      <WithAppInfo>
        <CompanyProvider>
          <ToastProvider>
            <QuoteSessionProvider>
              <LowBalanceProvider>
                <Shell />
              </LowBalanceProvider>
            </QuoteSessionProvider>
          </ToastProvider>
        </CompanyProvider>
      </WithAppInfo>
    </I18nProvider>
  );
}

/** The core's ui.language decides the language at start-up (localStorage only avoids a flash). */
function WithAppInfo(props: { children: ReactNode }): ReactNode {
  const { applyLang } = useLang();
  const onInfo = useCallback((info: AppInfo) => applyLang(info.language), [applyLang]);
  return <AppProvider onInfo={onInfo}>{props.children}</AppProvider>;
}

const NAV_KEYS = {
  quote: 'common.nav.quote',
  history: 'common.nav.history',
  carriers: 'common.nav.carriers',
  balance: 'common.nav.balance',
  settings: 'common.nav.settings',
  bulk: 'bulk.title',
} as const satisfies Record<Screen, string>;

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
  );
}

function Shell(): ReactNode {
  const t = useT();
  const route = useRoute();
  const { info, refreshInfo } = useApp();
  const { generation } = useCompany();
  const [helpOpen, setHelpOpen] = useState(false);
  // A toast belongs to the screen that showed it (#17 item 7).
  useToastsLeaveWith(route.screen);

  // Sandbox/live and the listener can change on other screens: re-read app info on every navigation.
  useEffect(() => {
    void refreshInfo();
  }, [route.screen, refreshInfo]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented) return;
      if (e.key === 'F1' || (e.key === '?' && !isTyping(e.target) && !e.ctrlKey && !e.metaKey)) {
        e.preventDefault();
        setHelpOpen(true);
        return;
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey && new RegExp(`^[1-${SCREENS.length}]$`).test(e.key)) {
        e.preventDefault();
        navigate(SCREENS[Number(e.key) - 1]!);
        return;
      }
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k' && route.screen !== 'quote') {
        // On the quote screen the screen itself handles Ctrl+K; elsewhere it first goes home.
        e.preventDefault();
        navigate('quote');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [route.screen]);

  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">{t('common.app.name')}</span>
        <nav className="nav" aria-label={t('common.nav.label')}>
          {SCREENS.map((screen) => (
            <a
              key={screen}
              href={hrefFor(screen)}
              aria-current={route.screen === screen ? 'page' : undefined}
              data-testid={`nav-${screen}`}
            >
              {t(NAV_KEYS[screen])}
            </a>
          ))}
        </nav>
        <div className="topbar-end">
          {info?.sandbox ? (
            <span className="sandbox-badge" title={t('common.sandbox.hint')} data-testid="sandbox-badge">
              {t('common.sandbox.badge')}
            </span>
          ) : null}
          <CompanyChip />
          <LangSwitch />
        </div>
      </header>
      <CompanyBanner />
      {route.screen === 'balance' ? <LowBalanceBanner /> : null}
      <main className="main" id="main">
        {/* A new generation when the company server answers again: the screen loads afresh. */}
        <CurrentScreen key={generation} screen={route.screen} params={route.params} />
      </main>
      <footer className="footer">
        <FooterBalance key={generation} />
        <LowBalanceMark />
        <ToastRegion />
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => setHelpOpen(true)}
          data-testid="help-button"
        >
          {t('common.footer.help')}
        </button>
      </footer>
      <ShortcutsOverlay open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}

function CurrentScreen(props: { screen: Screen; params: string[] }): ReactNode {
  switch (props.screen) {
    case 'quote':
      return <QuoteScreen />;
    case 'history':
      return <HistoryScreen params={props.params} />;
    case 'carriers':
      return <CarriersScreen params={props.params} />;
    case 'balance':
      return <BalanceScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'bulk':
      return <BulkScreen />;
  }
}

function LangSwitch(): ReactNode {
  const t = useT();
  const { lang, setLang } = useLang();
  return (
    <div className="lang-switch" role="group" aria-label={t('common.lang.label')} data-testid="lang-switch">
      {(['ru', 'en'] as const).map((l) => (
        <button
          key={l}
          type="button"
          aria-pressed={lang === l}
          onClick={() => setLang(l)}
          data-testid={`lang-${l}`}
        >
          {t(l === 'ru' ? 'common.lang.ru' : 'common.lang.en')}
        </button>
      ))}
    </div>
  );
}

/**
 * Requests left on the default account (the desk quote itself is free; /v1 calls from local tools spend
 * them). Updated live by balance:changed.
 */
function FooterBalance(): ReactNode {
  const t = useT();
  const { lang } = useLang();
  const accountLabel = useAccountLabel();
  const [account, setAccount] = useState<{ name: string; balance: number } | null>(null);
  useEffect(() => {
    if (!hasDeskApi()) return;
    let live = true;
    call((api) => api.accounts.list())
      .then((list) => {
        const chosen = list.find((a) => a.name === 'default') ?? list[0];
        if (live && chosen) setAccount({ name: chosen.name, balance: chosen.balance });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  useDeskEvent('balance:changed', (e) =>
    setAccount((a) => (a && a.name === e.account ? { ...a, balance: e.balance } : a)),
  );
  if (!account) return <span />;
  const balance = formatInteger(account.balance, lang);
  return (
    <span data-testid="footer-balance" className="num">
      {account.name === 'default'
        ? t('common.footer.balance', { balance })
        : t('common.footer.balanceAccount', { account: accountLabel(account.name), balance })}
    </span>
  );
}
