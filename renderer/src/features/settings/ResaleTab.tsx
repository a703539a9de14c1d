// Settings → «Наценка» (#21): the resale rules that give a quote its customer's price. Everyone sees the
// rules (pricing:list is a clerk's); adding, editing and removing are an admin's (the role table), and
// removing asks first. The same on a local desk and on a company desk (the server's rules).
import { useState, type ReactNode } from 'react';
import type { PricingRuleView } from '../../../../core/desk/contract';
import { call } from '../../api/client';
import { useDeskQuery } from '../../api/hooks';
import { useCarrierNamer, useQuoteCarrierList } from '../../api/useCarrierNames';
import { useAccountLabel } from '../../app/account-name';
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
import { formatMoney } from '../../lib/format';
import { Section, useExplain } from './kit';
import { ResaleForm } from './ResaleForm';
import { PREVIEW_PRICES_KOPECKS } from './resale-form';
import { percentText, previewOf } from './resale-view';
import './resale.css';

const EXAMPLE_KOPECKS = PREVIEW_PRICES_KOPECKS[1];

export function ResaleTab(): ReactNode {
  const t = useT('resale');
  const { lang } = useLang();
  const toast = useToast();
  const explain = useExplain();
  const can = useCan();
  const list = useDeskQuery((api) => api.pricing.list(), []);
  const accounts = useDeskQuery((api) => api.accounts.list(), []);
  const carriers = useQuoteCarrierList();
  const nameOf = useCarrierNamer(carriers);
  const accountLabel = useAccountLabel();
  const [editing, setEditing] = useState<PricingRuleView | 'new' | null>(null);
  const [removing, setRemoving] = useState<PricingRuleView | null>(null);
  const [busy, setBusy] = useState(false);
  const rows = list.state.data ?? [];
  const maySet = can('pricing:set');
  const mayRemove = can('pricing:remove');

  const ownerText = (r: { account: string | null }): string =>
    r.account === null ? t('deskShort') : accountLabel(r.account);
  const carrierText = (r: { carrier: string | null }): string =>
    r.carrier === null ? t('allCarriers') : nameOf(r.carrier);
  const same = (a: PricingRuleView, b: PricingRuleView): boolean =>
    a.account === b.account && a.carrier === b.carrier;

  const remove = async (r: PricingRuleView): Promise<void> => {
    setBusy(true);
    try {
      await call((api) => api.pricing.remove({ account: r.account, carrier: r.carrier }));
      list.setData((prev) => (prev ?? []).filter((x) => !same(x, r)));
      toast(t('removed', { owner: ownerText(r), carrier: carrierText(r) }));
      setRemoving(null);
    } catch (err) {
      toast(explain(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  const lines = (parts: ReadonlyArray<string | null>): ReactNode => {
    const shown = parts.filter((p): p is string => p !== null);
    return shown.length === 0 ? (
      <span className="muted">{t('none')}</span>
    ) : (
      shown.map((p) => (
        <span key={p} className="resale-line">
          {p}
        </span>
      ))
    );
  };
  const example = formatMoney(EXAMPLE_KOPECKS, lang);
  const columns: Column<PricingRuleView>[] = [
    {
      key: 'rule',
      header: t('col.rule'),
      className: 'cell-cut',
      // Whose rule over which carrier: two lines, so neither name is cut at 1024.
      render: (r) => (
        <>
          <span title={ownerText(r)} className={r.account === null ? 'resale-desk' : undefined}>
            {ownerText(r)}
          </span>
          <span title={carrierText(r)} className="muted">
            {carrierText(r)}
          </span>
        </>
      ),
    },
    {
      key: 'markup',
      header: t('col.markup'),
      align: 'right',
      width: '104px',
      render: (r) =>
        lines([
          r.markup_percent > 0 ? `+${percentText(r.markup_percent, lang)}\u00a0%` : null,
          r.markup_kopecks > 0 ? `+${formatMoney(r.markup_kopecks, lang)}` : null,
        ]),
    },
    {
      key: 'packaging',
      header: t('col.packaging'),
      align: 'right',
      width: '100px',
      render: (r) => lines([r.packaging_kopecks > 0 ? formatMoney(r.packaging_kopecks, lang) : null]),
    },
    {
      key: 'limits',
      header: t('col.limits'),
      align: 'right',
      width: '140px',
      render: (r) =>
        lines([
          r.min_kopecks === null ? null : t('from', { sum: formatMoney(r.min_kopecks, lang) }),
          r.max_kopecks === null ? null : t('upTo', { sum: formatMoney(r.max_kopecks, lang) }),
        ]),
    },
    {
      key: 'rounding',
      header: t('col.rounding'),
      align: 'right',
      width: lang === 'ru' ? '108px' : '100px',
      render: (r) => lines([r.rounding === 'none' ? null : t(`step.${r.rounding}`)]),
    },
    {
      key: 'example',
      header: (
        <span title={t('col.exampleHint', { from: example })}>{t('col.example', { from: example })}</span>
      ),
      align: 'right',
      width: '116px',
      // What the rule makes of a 1 000 ₽ carrier price: the quickest check that it says what was meant.
      render: (r) => {
        const to = previewOf(r)?.find((p) => p.from === EXAMPLE_KOPECKS)?.to;
        return <strong>{to === undefined ? t('none') : formatMoney(to, lang)}</strong>;
      },
    },
  ];
  if (maySet || mayRemove) {
    columns.push({
      key: 'actions',
      header: <span className="sr-only">{t('col.actions')}</span>,
      width: lang === 'ru' ? '176px' : '140px',
      render: (r) => {
        const names = { owner: ownerText(r), carrier: carrierText(r) };
        return (
          <span className="row-actions">
            {maySet ? (
              <Button
                size="sm"
                onClick={() => setEditing(r)}
                aria-label={t('editLabel', names)}
                data-testid="resale-edit"
              >
                {t('edit')}
              </Button>
            ) : null}
            {mayRemove ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setRemoving(r)}
                aria-label={t('removeLabel', names)}
                data-testid="resale-remove"
              >
                {t('remove')}
              </Button>
            ) : null}
          </span>
        );
      },
    });
  }

  return (
    <div className="stack" data-testid="resale-tab">
      <div className="panel settings-panel">
        <Section
          title={t('title')}
          hint={maySet ? t('hint') : `${t('hint')} ${t('adminOnly')}`}
          actions={
            maySet ? (
              <Button variant="primary" onClick={() => setEditing('new')} data-testid="resale-new">
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
            <EmptyState title={t('title')} data-testid="resale-empty">
              <p>{maySet ? t('emptyAdmin') : t('empty')}</p>
            </EmptyState>
          ) : (
            <Table
              columns={columns}
              rows={rows}
              rowKey={(r) => `${r.account_id ?? 'desk'}/${r.carrier ?? '*'}`}
              caption={t('title')}
              rowProps={(r) => ({
                'data-testid': 'resale-row',
                'data-owner': r.account ?? '',
                'data-carrier': r.carrier ?? '',
              })}
              className="resale-table"
              data-testid="resale-table"
            />
          )}
        </Section>
      </div>
      {editing ? (
        <ResaleForm
          editing={editing === 'new' ? null : editing}
          rules={rows}
          accounts={accounts.state.data ?? []}
          carriers={carriers}
          ownerText={ownerText}
          carrierText={carrierText}
          onClose={() => setEditing(null)}
          onSaved={() => {
            // The list's order (the desk first, then by account and carrier) is the store's: read it again.
            void list.reload();
            setEditing(null);
          }}
        />
      ) : null}
      <Dialog
        open={removing !== null}
        title={t('confirm.title', {
          owner: removing ? ownerText(removing) : '',
          carrier: removing ? carrierText(removing) : '',
        })}
        onClose={() => setRemoving(null)}
        initialFocus="[data-autofocus]"
        data-testid="resale-remove-confirm"
        footer={
          <>
            <Button onClick={() => setRemoving(null)} data-autofocus="">
              {t('confirm.keep')}
            </Button>
            <Button
              variant="danger"
              busy={busy}
              onClick={() => removing && void remove(removing)}
              data-testid="resale-remove-confirm-button"
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
