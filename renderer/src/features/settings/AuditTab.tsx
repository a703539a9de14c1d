// Settings → «Журнал действий» (#20, admin only): who changed what and when. Filters (who, area, from/to
// days), the newest first, «Показать ещё» for older entries, and CSV export of what the filter selects.
import { useEffect, useState, type ReactNode } from 'react';
import type { AuditEntry } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCompany } from '../../app/company';
import {
  Button,
  EmptyState,
  ErrorState,
  Field,
  Input,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { downloadFile } from '../../lib/files';
import { formatDateTime } from '../../lib/format';
import {
  actionLabel,
  areaLabel,
  AUDIT_AREAS,
  detailText,
  EMPTY_FILTER,
  isFiltered,
  targetText,
  toAuditFilter,
  type AuditFilterForm,
} from './audit-logic';
import { useExplain } from './kit';
import './audit.css';

const PAGE = 100;

export function AuditTab(): ReactNode {
  const t = useT('company');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const [form, setForm] = useState<AuditFilterForm>(EMPTY_FILTER);
  // The name is typed: search once the typing pauses; the other filters apply at once.
  const [actor, setActor] = useState('');
  const [limit, setLimit] = useState(PAGE);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      setForm((f) => (f.actor === actor ? f : { ...f, actor }));
      setLimit(PAGE);
    }, 250);
    return () => clearTimeout(timer);
  }, [actor]);

  const filter = toAuditFilter(form);
  const key = JSON.stringify(filter);
  const { state, reload } = useDeskQuery((api) => api.audit.search({ ...filter, limit }), [key, limit]);
  const rows = state.data ?? [];

  const change = (patch: Partial<AuditFilterForm>): void => {
    setForm((f) => ({ ...f, ...patch }));
    setLimit(PAGE);
  };

  const exportCsv = async (): Promise<void> => {
    setExporting(true);
    try {
      const file = await call((api) => api.audit.export(filter));
      downloadFile(file);
      toast(t('audit.exported', { name: file.filename }));
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<AuditEntry>[] = [
    { key: 'at', header: t('audit.col.at'), width: '152px', render: (e) => formatDateTime(e.at, lang) },
    {
      key: 'who',
      header: t('audit.col.who'),
      width: '170px',
      render: (e) => <Who entry={e} />,
    },
    {
      key: 'action',
      header: t('audit.col.action'),
      width: '220px',
      render: (e) => (
        <span title={e.action} data-action={e.action}>
          {actionLabel(e.action, lang)}
        </span>
      ),
    },
    {
      key: 'target',
      header: t('audit.col.target'),
      width: '180px',
      render: (e) => {
        const text = targetText(e, lang);
        return (
          <span className="cut" title={text}>
            {text || '—'}
          </span>
        );
      },
    },
    {
      key: 'detail',
      header: t('audit.col.detail'),
      className: 'audit-detail',
      render: (e) => {
        const text = detailText(e.detail, lang);
        return (
          <span className="cut" title={text}>
            {text || '—'}
          </span>
        );
      },
    },
  ];

  return (
    <div className="stack" data-testid="audit-tab">
      <div className="screen-head">
        <p className="screen-lead">{t('audit.lead')}</p>
        <span className="spacer" />
        <Button needsServer busy={exporting} onClick={() => void exportCsv()} data-testid="audit-export">
          {t('audit.export')}
        </Button>
      </div>
      <div className="toolbar audit-filters" data-testid="audit-filters">
        <Field label={t('audit.who')} className="audit-filter-who">
          {({ id }) => (
            <Input
              id={id}
              type="search"
              placeholder={t('audit.whoPlaceholder')}
              value={actor}
              onChange={(e) => setActor(e.currentTarget.value)}
              data-testid="audit-filter-actor"
            />
          )}
        </Field>
        <Field label={t('audit.area')} className="audit-filter-area">
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={form.area}
              onChange={(e) => change({ area: e.currentTarget.value })}
              data-testid="audit-filter-area"
            >
              <option value="">{t('audit.area.all')}</option>
              {AUDIT_AREAS.map((a) => (
                <option key={a} value={a}>
                  {areaLabel(a, lang)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('audit.from')} className="audit-filter-date">
          {({ id }) => (
            <Input
              id={id}
              type="date"
              value={form.from}
              max={form.to || undefined}
              onChange={(e) => change({ from: e.currentTarget.value })}
              data-testid="audit-filter-from"
            />
          )}
        </Field>
        <Field label={t('audit.to')} className="audit-filter-date">
          {({ id }) => (
            <Input
              id={id}
              type="date"
              value={form.to}
              min={form.from || undefined}
              onChange={(e) => change({ to: e.currentTarget.value })}
              data-testid="audit-filter-to"
            />
          )}
        </Field>
        {isFiltered(form) || actor ? (
          <Button
            variant="ghost"
            onClick={() => {
              setActor('');
              change(EMPTY_FILTER);
            }}
            data-testid="audit-filter-reset"
          >
            {t('audit.reset')}
          </Button>
        ) : null}
      </div>

      {state.status === 'error' ? (
        <ErrorState
          error={state.error}
          title={t('audit.loadError')}
          onRetry={() => void reload()}
          data-testid="audit-error"
        />
      ) : state.data === undefined ? (
        <LoadingState>{t('audit.loading')}</LoadingState>
      ) : rows.length === 0 ? (
        <EmptyState title={t('audit.empty.title')} data-testid="audit-empty">
          <p>{isFiltered(form) ? t('audit.empty.filtered') : t('audit.empty.body')}</p>
        </EmptyState>
      ) : (
        <>
          <div className="panel">
            <Table
              columns={columns}
              rows={rows}
              rowKey={(e) => String(e.id)}
              caption={t('audit.caption')}
              className="audit-table"
              data-testid="audit-table"
              rowProps={(e) => ({ 'data-action': e.action })}
            />
          </div>
          <div className="form-actions">
            <span className="muted" data-testid="audit-count">
              {t('audit.shown', { n: rows.length })}
            </span>
            {rows.length >= limit ? (
              <Button
                onClick={() => setLimit((l) => Math.min(l + PAGE, 1000))}
                busy={state.status === 'loading'}
                disabled={limit >= 1000}
                data-testid="audit-more"
              >
                {t('audit.more')}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}

function Who({ entry }: { entry: AuditEntry }): ReactNode {
  const t = useT('company');
  const { status } = useCompany();
  // No person: the desk itself made the change — this computer locally, the server's own in company mode.
  if (entry.actor_kind === 'desk')
    return (
      <span className="muted">
        {entry.actor || t(status.mode === 'company' ? 'audit.actor.server' : 'audit.actor.desk')}
      </span>
    );
  if (entry.actor_kind === 'cli')
    return (
      <span>
        {entry.actor || '—'} <span className="muted">({t('audit.actor.cli')})</span>
      </span>
    );
  return (
    <span className="cut" title={entry.actor}>
      {entry.actor}
    </span>
  );
}
