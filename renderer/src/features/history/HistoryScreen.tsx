// History: every quote (desk and /v1), searchable; open one for its full result, re-run it to see the
// price change per service, export CSV/XLSX, copy as curl (ux.md "Other screens").
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { CarrierView, HistoryQuote, HistoryRow, RerunResult } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { hrefFor, navigate } from '../../app/router';
import {
  Badge,
  Button,
  copyText,
  EmptyState,
  ErrorState,
  Input,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import {
  formatDateTime,
  formatDays,
  formatMoney,
  formatMoneyDelta,
  formatWeight,
  type Lang,
} from '../../lib/format';
import { rateKey, type Rate } from '../quote/logic';
import { base64ToBytes, describeChange, kindFromReason } from './logic';

const PAGE = 50;

function useCarrierNames(): (code: string) => string {
  const [carriers, setCarriers] = useState<CarrierView[]>([]);
  useEffect(() => {
    if (!hasDeskApi()) return;
    call((api) => api.carriers.list())
      .then(setCarriers)
      .catch(() => {});
  }, []);
  return (code) => carriers.find((c) => c.code === code)?.name ?? code;
}

export function HistoryScreen(props: { params: string[] }): ReactNode {
  const id = Number(props.params[0]);
  if (Number.isInteger(id) && id > 0) return <HistoryDetail id={id} />;
  return <HistoryList />;
}

// ------------------------------------------------------------------------------------------------
// The list
// ------------------------------------------------------------------------------------------------

const SEARCH_KEY = 'ratedesk.history.search';

function HistoryList(): ReactNode {
  const t = useT('history');
  const { lang } = useLang();
  const toast = useToast();
  const nameOf = useCarrierNames();
  const [text, setText] = useState(() => sessionStorage.getItem(SEARCH_KEY) ?? '');
  const [query, setQuery] = useState(text);
  const [limit, setLimit] = useState(PAGE);
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(text);
      setLimit(PAGE);
      sessionStorage.setItem(SEARCH_KEY, text);
    }, 180);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => searchRef.current?.focus(), []);
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url);
    },
    [download],
  );

  const { state, reload } = useDeskQuery((api) => api.history.search({ text: query, limit }), [query, limit]);

  async function exportAs(format: 'csv' | 'xlsx'): Promise<void> {
    setExporting(format);
    try {
      const file = await call((api) =>
        api.history.export({ format, ...(query.trim() ? { text: query.trim() } : {}) }),
      );
      const url = URL.createObjectURL(new Blob([base64ToBytes(file.base64)], { type: file.mime }));
      setDownload({ url, name: file.filename });
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      toast(t('exported', { name: file.filename }));
    } catch (err) {
      toast(err instanceof Error ? err.message : t('common.error.unknown'), 'error');
    } finally {
      setExporting(null);
    }
  }

  const columns: Column<HistoryRow>[] = [
    { key: 'date', header: t('col.date'), render: (r) => formatDateTime(r.created_at, lang), width: '150px' },
    {
      key: 'route',
      header: t('col.route'),
      render: (r) => (
        <a href={hrefFor('history', r.id)} className="row-link" onClick={(e) => e.stopPropagation()}>
          {r.from_city} → {r.to_city}
        </a>
      ),
    },
    {
      key: 'weight',
      header: t('col.weight'),
      align: 'right',
      render: (r) => formatWeight(r.weight_grams, lang),
      width: '90px',
    },
    {
      key: 'cheapest',
      header: t('col.cheapest'),
      align: 'right',
      width: '130px',
      render: (r) =>
        r.cheapest_kopecks === null ? (
          <span className="muted">{t('noPrice')}</span>
        ) : (
          formatMoney(r.cheapest_kopecks, lang)
        ),
    },
    { key: 'carriers', header: t('col.carriers'), render: (r) => r.carriers.map(nameOf).join(', ') || '—' },
    {
      key: 'source',
      header: t('col.source'),
      width: '170px',
      render: (r) => (
        <span className="badges">
          <Badge tone={r.source === 'api' ? 'accent' : 'neutral'}>
            {t(r.source === 'api' ? 'source.api' : 'source.desk')}
          </Badge>
          {r.sandbox ? (
            <Badge tone="warn" title={t('sandboxHint')} data-testid="history-sandbox">
              {t('sandbox')}
            </Badge>
          ) : null}
        </span>
      ),
    },
  ];

  const rows = state.data ?? [];
  return (
    <section className="screen" aria-labelledby="history-title">
      <div className="screen-head">
        <h1 id="history-title" className="screen-title">
          {t('title')}
        </h1>
        <span className="spacer" />
        <Button onClick={() => void exportAs('csv')} busy={exporting === 'csv'} data-testid="export-csv">
          {t('exportCsv')}
        </Button>
        <Button onClick={() => void exportAs('xlsx')} busy={exporting === 'xlsx'} data-testid="export-xlsx">
          {t('exportXlsx')}
        </Button>
      </div>
      <div className="toolbar">
        <label htmlFor="history-search" className="field-label">
          {t('search')}
        </label>
        <Input
          id="history-search"
          ref={searchRef}
          type="search"
          className="search-input"
          placeholder={t('searchPlaceholder')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-testid="history-search"
        />
        {download ? (
          <a href={download.url} download={download.name} className="muted" data-testid="download-link">
            {t('download', { name: download.name })}
          </a>
        ) : null}
      </div>
      <div className="panel">
        {state.status === 'error' && rows.length === 0 ? (
          <ErrorState error={state.error} onRetry={() => void reload()} />
        ) : state.status === 'loading' && state.data === undefined ? (
          <LoadingState />
        ) : rows.length === 0 ? (
          query.trim() === '' ? (
            <EmptyState
              title={t('empty.title')}
              data-testid="history-empty"
              actions={
                <Button variant="primary" onClick={() => navigate('quote')}>
                  {t('empty.action')}
                </Button>
              }
            >
              <p>{t('empty.body')}</p>
            </EmptyState>
          ) : (
            <EmptyState title={t('noMatch.title')} data-testid="history-no-match">
              <p>{t('noMatch.body', { text: query.trim() })}</p>
            </EmptyState>
          )
        ) : (
          <>
            <Table
              columns={columns}
              rows={rows}
              rowKey={(r) => String(r.id)}
              caption={t('title')}
              onRowClick={(r) => navigate('history', r.id)}
              rowProps={(r) => ({ 'data-testid': 'history-row', 'data-id': String(r.id) })}
              data-testid="history-table"
            />
            {rows.length >= limit ? (
              <div className="state-actions">
                <Button onClick={() => setLimit((l) => l + PAGE)}>{t('loadMore')}</Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

// ------------------------------------------------------------------------------------------------
// One quote
// ------------------------------------------------------------------------------------------------

function newQuoteKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `r-${Date.now()}`;
}

function HistoryDetail(props: { id: number }): ReactNode {
  const t = useT('history');
  const tq = useT('quote');
  const { lang } = useLang();
  const toast = useToast();
  const nameOf = useCarrierNames();
  const { state, reload } = useDeskQuery((api) => api.history.get({ id: props.id }), [props.id]);
  const [rerun, setRerun] = useState<RerunResult | null>(null);
  const [busy, setBusy] = useState<'rerun' | 'curl' | null>(null);

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
  const rateColumns: Column<Rate>[] = [
    { key: 'carrier', header: tq('col.carrier'), render: (r) => r.carrier_name },
    { key: 'service', header: tq('col.service'), render: (r) => r.service_name },
    { key: 'delivery', header: tq('col.delivery'), render: (r) => tq(`delivery.${r.delivery_type}`) },
    {
      key: 'days',
      header: tq('col.days'),
      render: (r) => formatDays(r.days_min, r.days_max, lang),
      width: '110px',
    },
    {
      key: 'price',
      header: tq('col.price'),
      align: 'right',
      render: (r) => formatMoney(r.price_kopecks, lang),
      width: '130px',
    },
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
          variant="primary"
          onClick={() => void doRerun()}
          busy={busy === 'rerun'}
          title={t('rerunHint')}
          data-testid="rerun"
        >
          {t('rerun')}
        </Button>
        <Button onClick={() => void copyCurl()} busy={busy === 'curl'} data-testid="copy-curl">
          {t('curl')}
        </Button>
      </div>
      <dl className="facts panel">
        <div>
          <dt>{t('createdAt', { date: '' }).trim()}</dt>
          <dd>{formatDateTime(q.created_at, lang)}</dd>
        </div>
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
          <dd>
            {t('parcel', {
              weight: formatWeight(s.parcel.weight_grams, lang),
              l: s.parcel.length_cm,
              w: s.parcel.width_cm,
              h: s.parcel.height_cm,
            })}
          </dd>
        </div>
        <div>
          <dt>{tq('value')}</dt>
          <dd className="num">{formatMoney(s.declared_value_kopecks, lang)}</dd>
        </div>
      </dl>

      {rerun ? <ChangesTable result={rerun} lang={lang} /> : null}

      <div className="panel">
        {q.rates.length === 0 ? (
          <EmptyState title={tq('noRates.title')} />
        ) : (
          <Table
            columns={rateColumns}
            rows={q.rates}
            rowKey={rateKey}
            caption={t('quoteTitle', { id: q.id })}
            data-testid="history-rates"
          />
        )}
        {q.unavailable.length > 0 ? (
          <p className="not-rated">
            <strong>{t('unavailable')}:</strong>{' '}
            {q.unavailable
              .map((u) => {
                const kind = kindFromReason(u.reason);
                return `${nameOf(u.carrier)} — ${kind ? tq(`reason.${kind}`) : u.reason}`;
              })
              .join('; ')}
          </p>
        ) : null}
      </div>
    </section>
  );
}

function ChangesTable(props: { result: RerunResult; lang: Lang }): ReactNode {
  const t = useT('history');
  const { lang } = props;
  type Row = RerunResult['changes'][number];
  const columns: Column<Row>[] = [
    {
      key: 'service',
      header: t('change.service'),
      render: (c) =>
        `${props.result.quote.rates.find((r) => r.carrier === c.carrier)?.carrier_name ?? c.carrier} — ${c.service_name}`,
    },
    {
      key: 'before',
      header: t('change.before'),
      align: 'right',
      width: '120px',
      render: (c) => (c.before_kopecks === null ? '—' : formatMoney(c.before_kopecks, lang)),
    },
    {
      key: 'after',
      header: t('change.after'),
      align: 'right',
      width: '120px',
      render: (c) => (c.after_kopecks === null ? '—' : formatMoney(c.after_kopecks, lang)),
    },
    {
      key: 'delta',
      header: t('change.delta'),
      width: '220px',
      render: (c) => {
        const d = describeChange(c);
        switch (d.kind) {
          case 'up':
            return (
              <span className="delta delta-up" data-testid="change-up">
                ↑ {formatMoneyDelta(d.delta!, lang)}{' '}
                <span className="sr-only">{t('change.up', { amount: formatMoney(d.delta!, lang) })}</span>
              </span>
            );
          case 'down':
            return (
              <span className="delta delta-down" data-testid="change-down">
                ↓ {formatMoneyDelta(d.delta!, lang)}{' '}
                <span className="sr-only">{t('change.down', { amount: formatMoney(-d.delta!, lang) })}</span>
              </span>
            );
          case 'new':
            return (
              <span className="delta" data-testid="change-new">
                {t('change.new')}
              </span>
            );
          case 'gone':
            return (
              <span className="delta muted" data-testid="change-gone">
                {t('change.gone')}
              </span>
            );
          case 'same':
            return (
              <span className="delta muted" data-testid="change-same">
                = {t('change.same')}
              </span>
            );
        }
      },
    },
  ];
  return (
    <div className="panel" data-testid="rerun-changes">
      <h2 className="panel-title">{t('change.title')}</h2>
      <Table
        columns={columns}
        rows={props.result.changes}
        rowKey={(c) => `${c.carrier}/${c.service_code}`}
        caption={t('change.title')}
      />
    </div>
  );
}
