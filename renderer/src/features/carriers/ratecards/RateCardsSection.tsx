// «Тарифные сетки» on the Carriers screen: the rate cards of the data file (carriers without an API, quoted
// from a CSV of prices), importing one from a file, replacing it with a new file, removing it (confirmed).
import { useState, type ReactNode } from 'react';
import type { RateCardView } from '../../../../../core/desk/contract';
import { call } from '../../../api/client';
import { useCan } from '../../../app/company';
import { useDeskEvent, useDeskQuery } from '../../../api/hooks';
import {
  Badge,
  Button,
  Dialog,
  EmptyState,
  ErrorState,
  LoadingState,
  Table,
  useToast,
  type Column,
} from '../../../components';
import { useLang, useT } from '../../../i18n';
import { formatDateTime, formatInteger, formatWeight } from '../../../lib/format';
import { useExplain } from '../../settings/kit';
import { STATUS_TONE } from '../logic';
import { ImportRateCardDialog } from './ImportRateCardDialog';
import './ratecards.css';

export function RateCardsSection(): ReactNode {
  const t = useT('ratecards');
  const tc = useT('carriers');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const cards = useDeskQuery((api) => api.ratecards.list(), []);
  const [dialog, setDialog] = useState<{ replacing: RateCardView | null } | null>(null);
  const [removing, setRemoving] = useState<RateCardView | null>(null);
  const [busy, setBusy] = useState(false);
  const can = useCan();

  // A card's status changes with its quotes, like any carrier's.
  useDeskEvent('carriers:status', (e) => {
    cards.setData((list) => (list ?? []).map((c) => (c.code === e.code ? { ...c, status: e.status } : c)));
  });

  const list = cards.state.data;

  const remove = async (card: RateCardView): Promise<void> => {
    setBusy(true);
    try {
      await call((api) => api.ratecards.remove({ code: card.code }));
      cards.setData((l) => (l ?? []).filter((c) => c.code !== card.code));
      toast(t('removed', { name: card.name }));
      setRemoving(null);
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  // Company mode (#20): a clerk sees the cards; importing, replacing and removing are the admin's.
  const manage = can('ratecards:import') && can('ratecards:remove');
  const columns: Column<RateCardView>[] = [
    {
      key: 'name',
      header: t('col.name'),
      render: (c) => (
        <>
          <strong>{c.name}</strong> <span className="mono muted">{c.code}</span>
        </>
      ),
    },
    {
      key: 'services',
      header: t('col.services'),
      render: (c) => c.services.map((s) => s.service_name).join(', '),
    },
    { key: 'rows', header: t('col.rows'), align: 'right', render: (c) => formatInteger(c.rows, lang) },
    {
      key: 'upTo',
      header: t('col.upTo'),
      align: 'right',
      render: (c) => formatWeight(c.max_weight_grams, lang),
    },
    {
      key: 'divisor',
      header: t('col.divisor'),
      align: 'right',
      render: (c) => formatInteger(c.volumetric_divisor, lang),
    },
    {
      key: 'status',
      header: t('col.status'),
      render: (c) => (
        <Badge tone={STATUS_TONE[c.status]} title={tc(`statusHint.${c.status}`)}>
          <span data-status={c.status}>{tc(`status.${c.status}`)}</span>
        </Badge>
      ),
    },
    { key: 'imported', header: t('col.imported'), render: (c) => formatDateTime(c.created_at, lang) },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">{t('col.actions')}</span>,
      render: (c) => (
        <span className="ratecard-actions">
          <Button
            needsServer
            size="sm"
            onClick={() => setDialog({ replacing: c })}
            aria-label={t('replaceLabel', { name: c.name })}
            data-testid={`ratecard-replace-${c.code}`}
          >
            {t('replace')}
          </Button>
          <Button
            needsServer
            size="sm"
            variant="ghost"
            onClick={() => setRemoving(c)}
            aria-label={t('removeLabel', { name: c.name })}
            data-testid={`ratecard-remove-${c.code}`}
          >
            {t('remove')}
          </Button>
        </span>
      ),
    });
  }

  return (
    <article className="card ratecards" aria-labelledby="ratecards-title" data-testid="ratecards">
      <header className="card-head">
        <h2 className="card-title" id="ratecards-title">
          {t('title')}
        </h2>
        {can('ratecards:import') ? (
          <div className="card-head-end">
            <Button
              needsServer
              variant="primary"
              onClick={() => setDialog({ replacing: null })}
              data-testid="ratecard-import"
            >
              {t('import')}
            </Button>
          </div>
        ) : null}
      </header>
      <div className="ratecards-body">
        <p className="section-hint">{t('hint')}</p>
        {list === undefined ? (
          cards.state.status === 'error' ? (
            <ErrorState
              error={cards.state.error}
              title={t('loadError')}
              onRetry={() => void cards.reload()}
            />
          ) : (
            <LoadingState>{t('loading')}</LoadingState>
          )
        ) : list.length === 0 ? (
          <EmptyState title={t('empty')} data-testid="ratecards-empty" />
        ) : (
          <Table
            columns={columns}
            rows={list}
            rowKey={(c) => c.code}
            caption={t('title')}
            rowProps={(c) => ({ 'data-testid': `ratecard-row-${c.code}` })}
            data-testid="ratecard-list"
          />
        )}
      </div>
      <ImportRateCardDialog
        open={dialog !== null}
        replacing={dialog?.replacing ?? null}
        existing={list ?? []}
        onClose={() => setDialog(null)}
        onImported={(card) =>
          cards.setData((l) =>
            [...(l ?? []).filter((c) => c.code !== card.code), card].sort((a, b) =>
              a.code.localeCompare(b.code),
            ),
          )
        }
      />
      <Dialog
        open={removing !== null}
        title={removing ? t('removeDialog.title', { name: removing.name }) : ''}
        onClose={() => setRemoving(null)}
        initialFocus="[data-autofocus]"
        data-testid="ratecard-remove-dialog"
        footer={
          <>
            <Button onClick={() => setRemoving(null)} data-autofocus="">
              {t('common.cancel')}
            </Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => removing && void remove(removing)}
              data-testid="ratecard-remove-confirm"
            >
              {t('removeDialog.confirm')}
            </Button>
          </>
        }
      >
        <p>{removing ? t('removeDialog.body', { name: removing.name, code: removing.code }) : null}</p>
      </Dialog>
    </article>
  );
}
