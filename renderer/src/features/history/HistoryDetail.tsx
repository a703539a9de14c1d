// One stored quote: what was asked, every rate, the carriers that gave none (in the UI language), a re-run
// with the price change per service, and copying it as text or as a curl command. The clerk's quote (#21):
// its places, COD and ship date among the facts; each rate's fees, days with their kind and dates, and the
// customer's price, in the Quote screen's own cells (quotes from before #21 show what they always did).
import { useEffect, useState, type ReactNode } from 'react';
import { newQuoteKey, type HistoryQuote, type RerunResult } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCarrierNames } from '../../api/useCarrierNames';
import { hrefFor } from '../../app/router';
import {
  Badge,
  Button,
  copyText,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDay } from '../../lib/dates';
import { formatDateTime, formatMoney } from '../../lib/format';
import { rateKey, resultsAsText, type DeliveryType, type Rate } from '../quote/logic';
import { NotRated } from '../quote/NotRated';
import { feeColumns, hasCustomerPrices } from '../quote/rate-extras';
import { CustomerCell, DaysCell, FeeCell, FeeHeader, PriceCell, ServiceCell } from '../quote/RateCells';
import { describeBoxes, describeShipment } from '../quote/ResultHeading';
import { ChangesTable } from './ChangesTable';

export function HistoryDetail(props: { id: number }): ReactNode {
  const t = useT('history');
  const tq = useT('quote');
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const toast = useToast();
  const nameOf = useCarrierNames();
  const { state, reload } = useDeskQuery((api) => api.history.get({ id: props.id }), [props.id]);
  const [rerun, setRerun] = useState<RerunResult | null>(null);
  const [busy, setBusy] = useState<'rerun' | 'curl' | null>(null);
  const deliveryLabel = (d: DeliveryType): string => tq(`delivery.${d}`);

  useEffect(() => setRerun(null), [props.id]);

  async function doRerun(): Promise<void> {
    setBusy('rerun');
    try {
      const result = await call((api) => api.history.rerun({ id: props.id, quoteKey: newQuoteKey() }));
      setRerun(result);
      toast(t('rerunDone', { id: result.quote.quote_id }));
    } catch (err) {
      toast(err instanceof Error ? err.message : t('common.error.unknown'), 'error');
    } finally {
      setBusy(null);
    }
  }

  async function copyCurl(): Promise<void> {
    setBusy('curl');
    try {
      const command = await call((api) => api.history.curl({ id: props.id }));
      const ok = await copyText(command);
      toast(ok ? t('curlCopied') : t('common.copyFailed'), ok ? 'info' : 'error');
    } catch (err) {
      toast(err instanceof Error ? err.message : t('common.error.unknown'), 'error');
    } finally {
      setBusy(null);
    }
  }

  async function copyAsText(q: HistoryQuote): Promise<void> {
    const heading = `${t('quoteTitle', { id: q.id })}: ${describeShipment(q.shipment, lang, tq)}`;
    const marker = q.sandbox ? tq('sandbox.marker') : undefined;
    const ok = await copyText(resultsAsText(q.rates, nameOf, deliveryLabel, lang, heading, marker));
    toast(ok ? tq('copiedAll') : t('common.copyFailed'), ok ? 'info' : 'error');
  }

  const back = (
    <a href={hrefFor('history')} className="back-link" data-testid="history-back">
      {t('back')}
    </a>
  );

  if (state.status === 'error') {
    return (
      <section className="screen">
        {back}
        <div className="panel">
          <ErrorState error={state.error} onRetry={() => void reload()} />
        </div>
      </section>
    );
  }
  if (!state.data) {
    return (
      <section className="screen">
        {back}
        <div className="panel">
          <LoadingState />
        </div>
      </section>
    );
  }
  const q: HistoryQuote = state.data;
  const s = q.shipment;
  // Kinds only (the core reads old rows back into kinds): worded here, never the carrier's English.
  const failures = q.failures;
  const rates: Rate[] = q.rates;
  // The day counted from: as asked, or (a quote for today) the one the rates were counted from.
  const shipDate = s.ship_date ?? rates.find((r) => r.ship_date)?.ship_date ?? null;
  const rateColumns: Column<Rate>[] = [
    { key: 'carrier', header: tq('col.carrier'), render: (r) => nameOf(r.carrier, r.carrier_name) },
    {
      key: 'service',
      header: tq('col.service'),
      render: (r) => <ServiceCell rate={r} />,
      className: 'cell-service',
    },
    { key: 'delivery', header: tq('col.delivery'), render: (r) => deliveryLabel(r.delivery_type) },
    {
      key: 'days',
      header: tq('col.days'),
      render: (r) => <DaysCell rate={r} />,
      width: '110px',
    },
    ...feeColumns(rates, s).map((kind): Column<Rate> => ({
      key: `fee-${kind}`,
      header: <FeeHeader kind={kind} />,
      align: 'right',
      render: (r) => <FeeCell rate={r} kind={kind} />,
      className: 'cell-fee',
    })),
    {
      key: 'price',
      header: tq('col.price'),
      align: 'right',
      render: (r) => <PriceCell rate={r} />,
      width: '130px',
      className: 'cell-price',
    },
    ...(hasCustomerPrices(rates)
      ? [
          {
            key: 'customer',
            header: <span title={tx('customerHint')}>{tx('col.customer')}</span>,
            align: 'right',
            render: (r) => <CustomerCell rate={r} />,
            width: '120px',
            className: 'cell-customer',
          } satisfies Column<Rate>,
        ]
      : []),
  ];

  return (
    <section className="screen" aria-labelledby="quote-detail-title" data-testid="history-detail">
      {back}
      <div className="screen-head">
        <h1 id="quote-detail-title" className="screen-title">
          {t('quoteTitle', { id: q.id })}: {s.from.city} → {s.to.city}
        </h1>
        <Badge tone={q.source === 'api' ? 'accent' : 'neutral'}>
          {t(q.source === 'api' ? 'source.api' : 'source.desk')}
        </Badge>
        {q.sandbox ? (
          <Badge tone="warn" title={t('sandboxHint')}>
            {t('sandbox')}
          </Badge>
        ) : null}
        <span className="spacer" />
        <Button
          needsServer
          variant="primary"
          onClick={() => void doRerun()}
          busy={busy === 'rerun'}
          title={t('rerunHint')}
          data-testid="rerun"
        >
          {t('rerun')}
        </Button>
        <Button onClick={() => void copyAsText(q)} title={tq('copyAllHint')} data-testid="copy-text">
          {t('copyText')}
        </Button>
        <Button needsServer onClick={() => void copyCurl()} busy={busy === 'curl'} data-testid="copy-curl">
          {t('curl')}
        </Button>
      </div>
      <dl className="facts panel">
        <div>
          <dt>{t('createdAt', { date: '' }).trim()}</dt>
          <dd>{formatDateTime(q.created_at, lang)}</dd>
        </div>
        {q.author ? (
          <div>
            <dt>{t('author')}</dt>
            <dd data-testid="history-detail-author">{q.author}</dd>
          </div>
        ) : null}
        {q.warehouse ? (
          <div>
            <dt>{t('warehouse')}</dt>
            <dd data-testid="history-detail-warehouse">{q.warehouse}</dd>
          </div>
        ) : null}
        <div>
          <dt>{tq('from')}</dt>
          <dd>
            {s.from.city}
            {s.from.postal_code ? <span className="muted"> {s.from.postal_code}</span> : null}
          </dd>
        </div>
        <div>
          <dt>{tq('to')}</dt>
          <dd>
            {s.to.city}
            {s.to.postal_code ? <span className="muted"> {s.to.postal_code}</span> : null}
          </dd>
        </div>
        <div>
          <dt>{t('shipment')}</dt>
          <dd data-testid="history-detail-boxes">{describeBoxes(s, lang, tq)}</dd>
        </div>
        <div>
          <dt>{tq('value')}</dt>
          <dd className="num">{formatMoney(s.declared_value_kopecks, lang)}</dd>
        </div>
        {s.cod_kopecks > 0 ? (
          <div>
            <dt>{tx('cod')}</dt>
            <dd className="num" data-testid="history-detail-cod">
              {formatMoney(s.cod_kopecks, lang)}
            </dd>
          </div>
        ) : null}
        {shipDate ? (
          <div>
            <dt>{tx('shipDate')}</dt>
            <dd data-testid="history-detail-ship-date">{formatDay(shipDate, lang)}</dd>
          </div>
        ) : null}
      </dl>

      {rerun ? <ChangesTable result={rerun} lang={lang} shipment={s} nameOf={nameOf} /> : null}

      {q.sandbox ? (
        <div className="result-head result-head-sandbox panel" role="note" data-testid="history-sandbox-note">
          <div className="result-for">
            <Badge tone="warn">{tq('sandbox.panel')}</Badge>
            <span className="result-sandbox-text">{tq('sandbox.panelText')}</span>
          </div>
        </div>
      ) : null}

      <div className="panel">
        {q.rates.length === 0 ? (
          <EmptyState title={tq('noRates.title')} />
        ) : (
          <Table
            columns={rateColumns}
            rows={rates}
            rowKey={rateKey}
            className="history-rates"
            caption={t('quoteTitle', { id: q.id })}
            data-testid="history-rates"
          />
        )}
        <NotRated
          failed={failures.map((f) => ({ code: f.carrier, kind: f.kind, detail: f.detail }))}
          shipment={s}
          nameOf={nameOf}
          label={t('unavailable')}
          data-testid="history-not-rated"
        />
      </div>
    </section>
  );
}
