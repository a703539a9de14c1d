// After a re-run: the services whose price moved, appeared or went, with the price before and now; the rest
// are «без изменений», said once (#17), not on every row; and the carriers that gave no rate this time, named
// once with why (their services are not listed one by one as «больше не предлагается»).
import type { ReactNode } from 'react';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import type { RerunResult } from '../../../../core/desk/contract';
import { Table, type Column } from '../../components';
import { useT } from '../../i18n';
import { formatMoney, formatMoneyDelta, type Lang } from '../../lib/format';
import { NotRated } from '../quote/NotRated';
import { summariseRerun, type ChangeLine } from './logic';

export function ChangesTable(props: {
  result: RerunResult;
  lang: Lang;
  shipment: QuoteRequestInput;
  nameOf: (code: string) => string;
}): ReactNode {
  const t = useT('history');
  const { lang } = props;
  const summary = summariseRerun(props.result.changes, props.result.quote.failures);
  const columns: Column<ChangeLine>[] = [
    {
      key: 'service',
      header: t('change.service'),
      className: 'cell-service',
      render: (c) => {
        const text = `${props.nameOf(c.carrier)} — ${c.service_name}`;
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
      render: (c) => <Delta line={c} lang={lang} />,
    },
  ];
  return (
    <div className="panel" data-testid="rerun-changes">
      <h2 className="panel-title">{t('change.title')}</h2>
      {summary.changed.length > 0 ? (
        <Table
          columns={columns}
          rows={summary.changed}
          rowKey={(c) => `${c.carrier}/${c.service_code}`}
          caption={t('change.title')}
        />
      ) : null}
      {summary.unchanged > 0 ? (
        <p className="rerun-same" data-testid="change-same">
          {summary.changed.length > 0
            ? t('change.restSame', { n: summary.unchanged })
            : t('change.allSame', { n: summary.unchanged })}
        </p>
      ) : null}
      <NotRated
        failed={summary.failures.map((f) => ({ code: f.carrier, kind: f.kind, detail: f.detail }))}
        shipment={props.shipment}
        nameOf={props.nameOf}
        label={t('change.failed')}
        data-testid="rerun-not-rated"
      />
    </div>
  );
}

function Delta(props: { line: ChangeLine; lang: Lang }): ReactNode {
  const t = useT('history');
  const { line: c, lang } = props;
  switch (c.kind) {
    case 'up':
      return (
        <span className="delta delta-up" data-testid="change-up">
          ↑ {formatMoneyDelta(c.delta!, lang)}{' '}
          <span className="sr-only">{t('change.up', { amount: formatMoney(c.delta!, lang) })}</span>
        </span>
      );
    case 'down':
      return (
        <span className="delta delta-down" data-testid="change-down">
          ↓ {formatMoneyDelta(c.delta!, lang)}{' '}
          <span className="sr-only">{t('change.down', { amount: formatMoney(-c.delta!, lang) })}</span>
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
  }
}
