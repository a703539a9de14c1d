// After a re-run: every service of either run with its price before and now, and the change in words.
import type { ReactNode } from 'react';
import type { RerunResult } from '../../../../core/desk/contract';
import { Table, type Column } from '../../components';
import { useT } from '../../i18n';
import { formatMoney, formatMoneyDelta, type Lang } from '../../lib/format';
import { describeChange } from './logic';

export function ChangesTable(props: { result: RerunResult; lang: Lang }): ReactNode {
  const t = useT('history');
  const { lang } = props;
  type Row = RerunResult['changes'][number];
  const columns: Column<Row>[] = [
    {
      key: 'service',
      header: t('change.service'),
      className: 'cell-service',
      render: (c) => {
        const text = `${props.result.quote.rates.find((r) => r.carrier === c.carrier)?.carrier_name ?? c.carrier} — ${c.service_name}`;
        return <span title={text}>{text}</span>;
      },
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
