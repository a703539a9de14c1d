// Перевозчики: one card per carrier the core has (carriers:list), each made of sections (health,
// connection, credentials). A new carrier appears with no change here; a new kind of information (rate
// cards, richer health) is one more entry in CARD_SECTIONS of CarrierCard.tsx.
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { CarrierView } from '../../../../core/desk/contract';
import { useDeskEvent, useDeskQuery } from '../../api/hooks';
import { useCan } from '../../app/company';
import { useApp } from '../../app/context';
import { hrefFor } from '../../app/router';
import { Banner, EmptyState, ErrorState, LoadingState } from '../../components';
import { useLang, useT } from '../../i18n';
import { namedIn } from '../../lib/carrier-names';
import { CarrierCard } from './CarrierCard';
import { scrollIntoMain } from '../../lib/scroll';
import { STATUS_TONE } from './logic';
import { RateCardsSection } from './ratecards/RateCardsSection';

/**
 * Eight carriers make a long page: one line with each carrier's status, a click (or Enter) away from its card.
 */
function CarrierIndex({ carriers }: { carriers: readonly CarrierView[] }): ReactNode {
  const t = useT('carriers');
  const go = (code: string): void => {
    const card = document.querySelector<HTMLElement>(`[data-testid="carrier-card-${code}"]`);
    if (!card) return;
    scrollIntoMain(card);
    card.focus({ preventScroll: true });
  };
  return (
    <nav className="carrier-index" aria-label={t('index.label')} data-testid="carrier-index">
      {carriers.map((c) => (
        <button
          key={c.code}
          type="button"
          className="carrier-index-item"
          onClick={() => go(c.code)}
          title={t(`statusHint.${c.status}`)}
          data-testid={`carrier-index-${c.code}`}
        >
          <span className={`status-dot tone-${STATUS_TONE[c.status]}`} aria-hidden="true" />
          <span className="carrier-index-name">{c.name}</span>
          <span className="carrier-index-state">{c.enabled ? t(`status.${c.status}`) : t('enabledOff')}</span>
        </button>
      ))}
    </nav>
  );
}

/** params[0]: a carrier code to bring into view (the quote screen's "switch on" link). */
export function CarriersScreen(props: { params?: string[] }): ReactNode {
  const t = useT('carriers');
  const { info } = useApp();
  const can = useCan();
  const { state, reload, setData } = useDeskQuery((api) => api.carriers.list(), []);

  // A status event carries only status and last error: patch at once, then re-read for latency and times
  // (coalesced, so a burst of events during a quote costs one call).
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useDeskEvent('carriers:status', (e) => {
    setData((list) =>
      (list ?? []).map((c) => (c.code === e.code ? { ...c, status: e.status, last_error: e.last_error } : c)),
    );
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      pending.current = null;
      void reload();
    }, 150);
  });

  const replace = useCallback(
    (next: CarrierView) => setData((list) => (list ?? []).map((c) => (c.code === next.code ? next : c))),
    [setData],
  );

  // Every name on the cards (titles, switches, toasts, dialogs) in the UI language: a card reads `name`.
  const { lang } = useLang();
  const carriers = useMemo(() => (state.data ? namedIn(state.data, lang) : undefined), [state.data, lang]);
  return (
    <div className="screen" data-testid="carriers-screen">
      <div className="screen-head">
        <h1 className="screen-title">{t('title')}</h1>
      </div>
      <p className="screen-lead">{t('lead')}</p>
      {/* About editing addresses and credentials: not a clerk's concern in company mode (#20). */}
      {info?.sandbox && can('carriers:update') ? (
        <Banner tone="info" inline data-testid="carriers-sandbox-note">
          {t('sandboxNote')} <a href={hrefFor('settings', 'general')}>{t('sandboxLink')}</a>
        </Banner>
      ) : null}
      {carriers === undefined ? (
        state.status === 'error' ? (
          <ErrorState error={state.error} title={t('loadError')} onRetry={() => void reload()} />
        ) : (
          <LoadingState>{t('loading')}</LoadingState>
        )
      ) : carriers.length === 0 ? (
        <EmptyState title={t('empty.title')}>
          <p>{t('empty.body')}</p>
        </EmptyState>
      ) : (
        <>
          {state.status === 'error' ? (
            <Banner tone="danger" inline>
              {t('refreshError')}
            </Banner>
          ) : null}
          <CarrierIndex carriers={carriers} />
          <div className="stack" data-testid="carrier-list">
            {carriers.map((c) => (
              <CarrierCard
                key={c.code}
                carrier={c}
                // Until the mode is known, as in the sandbox: no "missing credentials" warning flashes on a sandbox desk.
                sandbox={info?.sandbox ?? true}
                onChange={replace}
                focused={props.params?.[0] === c.code}
              />
            ))}
          </div>
        </>
      )}
      <RateCardsSection />
    </div>
  );
}
