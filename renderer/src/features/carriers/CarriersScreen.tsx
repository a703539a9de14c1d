// Перевозчики: one card per carrier the core has (carriers:list), each made of sections (health,
// connection, credentials). A new carrier appears with no change here; a new kind of information (rate
// cards, richer health) is one more entry in CARD_SECTIONS of CarrierCard.tsx.
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import type { CarrierView } from '../../../../core/desk/contract';
import { useDeskEvent, useDeskQuery } from '../../api/hooks';
import { useApp } from '../../app/context';
import { hrefFor } from '../../app/router';
import { Banner, EmptyState, ErrorState, LoadingState } from '../../components';
import { useT } from '../../i18n';
import { CarrierCard } from './CarrierCard';
import { RateCardsSection } from './ratecards/RateCardsSection';

/** params[0]: a carrier code to bring into view (the quote screen's "switch on" link). */
export function CarriersScreen(props: { params?: string[] }): ReactNode {
  const t = useT('carriers');
  const { info } = useApp();
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

  const carriers = state.data;
  return (
    <div className="screen" data-testid="carriers-screen">
      <div className="screen-head">
        <h1 className="screen-title">{t('title')}</h1>
      </div>
      <p className="screen-lead">{t('lead')}</p>
      {info?.sandbox ? (
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
          <div className="stack" data-testid="carrier-list">
            {carriers.map((c) => (
              <CarrierCard
                key={c.code}
                carrier={c}
                sandbox={info?.sandbox ?? false}
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
