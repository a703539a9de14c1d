// The history list: search (city or carrier), CSV/XLSX export of what the search shows, and a table of
// quotes. ↓ from the search box walks the rows, Enter opens the one chosen (issue #9).
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { HistoryRow } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCarrierNames } from '../../api/useCarrierNames';
import { hrefFor, navigate } from '../../app/router';
import {
  Badge,
  Button,
  EmptyState,
  ErrorState,
  Input,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { formatDateTime, formatWeight } from '../../lib/format';
import { Answered, Cheapest } from './HistoryCells';
import { HistoryFilters } from './HistoryFilters';
import { anyValue, base64ToBytes, filterChoices, filterInput, NO_FILTER, type HistoryFilter } from './logic';
import './history.css';

const PAGE = 50;
const SEARCH_KEY = 'ratedesk.history.search';
const FILTER_KEY = 'ratedesk.history.filter';

function readFilter(): HistoryFilter {
  try {
    const raw = JSON.parse(sessionStorage.getItem(FILTER_KEY) ?? 'null') as Partial<HistoryFilter> | null;
    return {
      author: typeof raw?.author === 'string' ? raw.author : '',
      warehouse: typeof raw?.warehouse === 'string' ? raw.warehouse : '',
    };
  } catch {
    return NO_FILTER;
  }
}

export function HistoryList(): ReactNode {
  const t = useT('history');
  const { lang } = useLang();
  const toast = useToast();
  const nameOf = useCarrierNames();
  const [text, setText] = useState(() => sessionStorage.getItem(SEARCH_KEY) ?? '');
  const [query, setQuery] = useState(text);
  const [limit, setLimit] = useState(PAGE);
  const [download, setDownload] = useState<{ url: string; name: string } | null>(null);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [filter, setFilterState] = useState<HistoryFilter>(readFilter);
  const setFilter = (next: HistoryFilter): void => {
    setFilterState(next);
    setLimit(PAGE);
    sessionStorage.setItem(FILTER_KEY, JSON.stringify(next));
  };
  // Names a filter offers (#20): the warehouses defined now, and every author and warehouse seen in a row
  // (a removed warehouse and a former user stay in History under their names).
  const warehouses = useDeskQuery((api) => api.warehouses.list(), []);
  const [seen, setSeen] = useState<{ author: string[]; warehouse: string[] }>({ author: [], warehouse: [] });

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

  const { state, reload } = useDeskQuery(
    (api) => api.history.search({ text: query, limit, ...filterInput(filter) }),
    [query, limit, filter.author, filter.warehouse],
  );
  const rows = state.data ?? [];
  const filtered = filter.author !== '' || filter.warehouse !== '';

  const loaded = state.data;
  useEffect(() => {
    if (!loaded) return;
    const names = (key: 'author' | 'warehouse'): (string | null)[] => loaded.map((r) => r[key]);
    setSeen((s) => ({
      author: filterChoices(s.author, names('author'), '', lang),
      warehouse: filterChoices(s.warehouse, names('warehouse'), '', lang),
    }));
  }, [loaded, lang]);
  const authorChoices = filterChoices(seen.author, [], filter.author, lang);
  const warehouseChoices = filterChoices(
    [...seen.warehouse, ...(warehouses.state.data ?? []).map((w) => w.name)],
    [],
    filter.warehouse,
    lang,
  );

  // A new search result: the chosen row stays chosen only if it is still listed.
  useEffect(() => {
    if (selected !== null && !rows.some((r) => r.id === selected)) setSelected(null);
  }, [rows, selected]);

  /** ↑/↓ move through the rows (from the search box too), Enter opens the chosen one. */
  const onKeys = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.altKey || e.ctrlKey || e.metaKey || rows.length === 0) return;
    // Enter on a link or a button is that control's own.
    if (e.key === 'Enter' && (e.target as HTMLElement).closest('a, button')) return;
    const i = rows.findIndex((r) => r.id === selected);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = e.key === 'ArrowDown' ? Math.min(i + 1, rows.length - 1) : Math.max(i - 1, 0);
      const id = rows[next]!.id;
      setSelected(id);
      document.querySelector(`tr[data-id="${id}"]`)?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' && selected !== null) {
      e.preventDefault();
      navigate('history', selected);
    }
  };

  async function exportAs(format: 'csv' | 'xlsx'): Promise<void> {
    setExporting(format);
    try {
      const file = await call((api) =>
        api.history.export({
          format,
          ...(query.trim() ? { text: query.trim() } : {}),
          ...filterInput(filter),
        }),
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

  // Every column stays inside the table at 1024 px (#17): fixed widths for what must be whole (date, weight,
  // price, source), the route and the carriers share the rest and are cut with an ellipsis, the whole text
  // in a tooltip.
  // With the warehouse or author column (#20) the fixed columns give way, so the route still reads at 1024.
  const showWarehouse = anyValue(rows, 'warehouse') || filter.warehouse !== '';
  const showAuthor = anyValue(rows, 'author') || filter.author !== '';
  const extra = showWarehouse || showAuthor;
  const columns: Column<HistoryRow>[] = [
    {
      key: 'date',
      header: t('col.date'),
      render: (r) => formatDateTime(r.created_at, lang),
      width: extra ? '136px' : '152px',
    },
    {
      key: 'route',
      header: t('col.route'),
      className: 'cell-route',
      render: (r) => {
        const route = `${r.from_city} → ${r.to_city}`;
        return (
          <a
            href={hrefFor('history', r.id)}
            className="row-link cut"
            title={route}
            onClick={(e) => e.stopPropagation()}
          >
            {route}
          </a>
        );
      },
    },
    // #20: shown only when some row has one (a desk on its own never has an author).
    ...(showWarehouse
      ? [
          {
            key: 'warehouse',
            header: t('col.warehouse'),
            width: '104px',
            render: (r: HistoryRow) => (
              <span className="cut" title={r.warehouse ?? ''} data-testid="history-warehouse">
                {r.warehouse ?? '—'}
              </span>
            ),
          },
        ]
      : []),
    ...(showAuthor
      ? [
          {
            key: 'author',
            header: t('col.author'),
            width: '96px',
            render: (r: HistoryRow) => (
              <span className="cut" title={r.author ?? ''} data-testid="history-author">
                {r.author ?? '—'}
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'weight',
      header: t('col.weight'),
      align: 'right',
      render: (r) => formatWeight(r.weight_grams, lang),
      width: extra ? '72px' : '80px',
    },
    {
      key: 'cheapest',
      header: t('col.cheapest'),
      align: 'right',
      width: extra ? '172px' : '216px',
      render: (r) => <Cheapest row={r} nameOf={nameOf} />,
    },
    {
      key: 'carriers',
      header: t('col.carriers'),
      className: 'cell-carriers',
      render: (r) => <Answered row={r} nameOf={nameOf} />,
    },
    {
      key: 'source',
      header: t('col.source'),
      // Whole in either language. Most rows come from the app: that is plain text; an API call is a badge.
      width: lang === 'ru' ? '216px' : '140px',
      render: (r) => (
        <span className="badges">
          {r.source === 'api' ? (
            <Badge tone="accent">{t('source.api')}</Badge>
          ) : (
            <span className="muted">{t('source.desk')}</span>
          )}
          {r.sandbox ? (
            <Badge tone="warn" title={t('sandboxHint')} data-testid="history-sandbox">
              {t('sandbox')}
            </Badge>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <section className="screen" aria-labelledby="history-title">
      <div className="screen-head">
        <h1 id="history-title" className="screen-title">
          {t('title')}
        </h1>
        <span className="spacer" />
        <Button
          needsServer
          onClick={() => void exportAs('csv')}
          busy={exporting === 'csv'}
          data-testid="export-csv"
        >
          {t('exportCsv')}
        </Button>
        <Button
          needsServer
          onClick={() => void exportAs('xlsx')}
          busy={exporting === 'xlsx'}
          data-testid="export-xlsx"
        >
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
          onKeyDown={onKeys}
          aria-controls="history-table"
          data-testid="history-search"
        />
        <HistoryFilters
          value={filter}
          onChange={setFilter}
          authors={authorChoices}
          warehouses={warehouseChoices}
        />
        <span className="muted field-hint">{t('keysHint')}</span>
        {download ? (
          <a href={download.url} download={download.name} className="muted" data-testid="download-link">
            {t('download', { name: download.name })}
          </a>
        ) : null}
      </div>
      <div className="panel" onKeyDown={onKeys}>
        {state.status === 'error' && rows.length === 0 ? (
          <ErrorState error={state.error} onRetry={() => void reload()} />
        ) : state.status === 'loading' && state.data === undefined ? (
          <LoadingState />
        ) : rows.length === 0 ? (
          query.trim() === '' && !filtered ? (
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
              <p>{query.trim() === '' ? t('noMatch.filtered') : t('noMatch.body', { text: query.trim() })}</p>
            </EmptyState>
          )
        ) : (
          <>
            <Table
              columns={columns}
              rows={rows}
              rowKey={(r) => String(r.id)}
              caption={t('title')}
              selectedKey={selected === null ? null : String(selected)}
              onRowClick={(r) => navigate('history', r.id)}
              rowProps={(r) => ({
                'data-testid': 'history-row',
                'data-id': String(r.id),
                'data-partial': r.failures.length > 0 ? 'true' : 'false',
              })}
              className={extra ? 'history-table history-table-extra' : 'history-table'}
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
