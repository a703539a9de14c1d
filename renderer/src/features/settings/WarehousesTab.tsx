// Settings → «Склады» (#20): the company's warehouses (origins of a quote). Everyone sees the list; adding,
// editing and removing are an admin's (the role table: warehouses:create/update/remove), and removing asks
// first. Works the same on a local desk (the local store) and on a company desk (the server's list).
import { useState, type ReactNode } from 'react';
import type { Warehouse } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCarrierNamer, useQuoteCarrierList } from '../../api/useCarrierNames';
import { useCan } from '../../app/company';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../components';
import { useLang, useT } from '../../i18n';
import { Section, useExplain } from './kit';
import { WarehousesForm } from './WarehousesForm';
import './warehouses.css';

export function WarehousesTab(): ReactNode {
  const t = useT('warehouses');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const can = useCan();
  const list = useDeskQuery((api) => api.warehouses.list(), []);
  const carriers = useQuoteCarrierList();
  const nameOf = useCarrierNamer(carriers);
  const [editing, setEditing] = useState<Warehouse | 'new' | null>(null);
  const [removing, setRemoving] = useState<Warehouse | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = list.state.data ?? [];
  const mayCreate = can('warehouses:create');
  const mayEdit = can('warehouses:update');
  const mayRemove = can('warehouses:remove');

  const remove = async (w: Warehouse): Promise<void> => {
    setBusy(true);
    try {
      await call((api) => api.warehouses.remove({ id: w.id }));
      list.setData((prev) => (prev ?? []).filter((x) => x.id !== w.id));
      toast(t('removed', { name: w.name }));
      setRemoving(null);
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  const columns: Column<Warehouse>[] = [
    {
      key: 'name',
      header: t('col.name'),
      className: 'cell-cut',
      // The address under the name: a second line for people, so the name gets the width.
      render: (w) => (
        <>
          <span title={w.name}>
            <strong>{w.name}</strong>
          </span>
          {w.address ? (
            <span className="muted wh-address" title={w.address}>
              {w.address}
            </span>
          ) : null}
        </>
      ),
    },
    {
      key: 'place',
      header: t('col.place'),
      width: '190px',
      // A long city gives way; the postal code is always read whole.
      render: (w) => (
        <span className="wh-place" title={[w.city, w.postal_code].filter(Boolean).join(' ')}>
          <span className="wh-city">{w.city}</span>
          {w.postal_code ? <span className="muted">{w.postal_code}</span> : null}
        </span>
      ),
    },
    {
      key: 'carriers',
      header: t('col.carriers'),
      width: '160px',
      className: 'cell-cut',
      render: (w) => {
        const text =
          w.default_carriers.length > 0
            ? w.default_carriers.map((c) => nameOf(c)).join(', ')
            : t('carriersDefault');
        return (
          <span title={text} className={w.default_carriers.length > 0 ? undefined : 'muted'}>
            {text}
          </span>
        );
      },
    },
    {
      key: 'boxes',
      header: t('col.boxes'),
      width: lang === 'ru' ? '124px' : '110px',
      render: (w) =>
        w.box_presets.length > 0 ? (
          <span title={w.box_presets.map((b) => b.name).join(', ')}>
            {t('boxesCount', { n: w.box_presets.length })}
          </span>
        ) : (
          <span className="muted">{t('boxesDefault')}</span>
        ),
    },
  ];
  if (mayEdit || mayRemove) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">{t('col.actions')}</span>,
      width: lang === 'ru' ? '180px' : '150px',
      render: (w) => (
        <span className="row-actions">
          {mayEdit ? (
            <Button
              size="sm"
              onClick={() => setEditing(w)}
              aria-label={t('editLabel', { name: w.name })}
              data-testid="warehouse-edit"
            >
              {t('edit')}
            </Button>
          ) : null}
          {mayRemove ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setRemoving(w)}
              aria-label={t('removeLabel', { name: w.name })}
              data-testid="warehouse-remove"
            >
              {t('remove')}
            </Button>
          ) : null}
        </span>
      ),
    });
  }

  return (
    <div className="stack" data-testid="warehouses-tab">
      <div className="panel settings-panel">
        <Section
          title={t('title')}
          hint={mayCreate ? t('hint') : `${t('hint')} ${t('adminOnly')}`}
          actions={
            mayCreate ? (
              <Button variant="primary" onClick={() => setEditing('new')} data-testid="warehouse-add">
                {t('add')}
              </Button>
            ) : undefined
          }
        >
          {list.state.status === 'error' && rows.length === 0 ? (
            <ErrorState error={list.state.error} onRetry={() => void list.reload()} />
          ) : list.state.status === 'loading' && list.state.data === undefined ? (
            <LoadingState />
          ) : rows.length === 0 ? (
            <EmptyState title={t('title')} data-testid="warehouses-empty">
              <p>{t('empty')}</p>
            </EmptyState>
          ) : (
            <Table
              columns={columns}
              rows={rows}
              rowKey={(w) => String(w.id)}
              caption={t('title')}
              rowProps={(w) => ({ 'data-testid': 'warehouse-row', 'data-name': w.name })}
              className="warehouses-table"
              data-testid="warehouses-table"
            />
          )}
        </Section>
      </div>
      {editing ? (
        <WarehousesForm
          editing={editing === 'new' ? null : editing}
          others={rows.filter((w) => editing === 'new' || w.id !== editing.id).map((w) => w.name)}
          carriers={carriers}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            list.setData((prev) => {
              const l = prev ?? [];
              return l.some((w) => w.id === saved.id)
                ? l.map((w) => (w.id === saved.id ? saved : w))
                : [...l, saved];
            });
            setEditing(null);
          }}
        />
      ) : null}
      <Dialog
        open={removing !== null}
        title={t('confirm.title', { name: removing?.name ?? '' })}
        onClose={() => setRemoving(null)}
        initialFocus="[data-autofocus]"
        data-testid="warehouse-remove-confirm"
        footer={
          <>
            <Button onClick={() => setRemoving(null)} data-autofocus="">
              {t('confirm.keep')}
            </Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => removing && void remove(removing)}
              data-testid="warehouse-remove-confirm-button"
            >
              {t('confirm.remove')}
            </Button>
          </>
        }
      >
        <p style={{ margin: 0 }}>{t('confirm.body')}</p>
      </Dialog>
    </div>
  );
}
