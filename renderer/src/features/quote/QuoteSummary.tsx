// «Дешевле всего: 5Post 320,00 ₽ · 9 дн. · Быстрее всего: Яндекс Доставка 2 дн. · 1 435,20 ₽», above the
// table (#17 item 7). Each part selects its row in the table (then Ctrl+C copies it).
import type { ReactNode } from 'react';
import { useLang, useT } from '../../i18n';
import type { CarrierNameOf } from '../../lib/carrier-names';
import { formatDays, formatMoney } from '../../lib/format';
import { rateKey, type Rate } from './logic';
import './output.css';
import { serviceLabel } from './service-label';
import { summaryOf } from './summary';

export function QuoteSummaryLine(props: {
  rows: readonly Rate[];
  nameOf: CarrierNameOf;
  onSelect: (key: string) => void;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  const summary = summaryOf(props.rows);
  if (!summary) return null;

  const option = (r: Rate, lead: 'price' | 'days', testId: string): ReactNode => {
    const price = formatMoney(r.price_kopecks, lang);
    const days = formatDays(r.days_min, r.days_max, lang);
    const [first, second] = lead === 'price' ? [price, days] : [days, price];
    const carrier = props.nameOf(r.carrier, r.carrier_name);
    const name = `${carrier} — ${serviceLabel(r)}`;
    return (
      <button
        type="button"
        className="link-button summary-option"
        title={t('summary.pick', { what: `${name}, ${price}, ${days}` })}
        onClick={() => {
          const key = rateKey(r);
          props.onSelect(key);
          document.querySelector(`tr[data-key="${CSS.escape(key)}"]`)?.scrollIntoView({ block: 'nearest' });
        }}
        data-testid={testId}
        data-key={rateKey(r)}
      >
        <span className="summary-carrier">{carrier}</span> <span className="num">{first}</span>
        {second !== '—' ? <span className="summary-second"> · {second}</span> : null}
      </button>
    );
  };

  return (
    <p className="quote-summary" aria-label={t('summary.label')} data-testid="quote-summary">
      {summary.same ? (
        <span className="summary-part">
          <span className="summary-label">{t('summary.both')}:</span>{' '}
          {option(summary.cheapest, 'price', 'summary-cheapest')}
        </span>
      ) : (
        <>
          <span className="summary-part">
            <span className="summary-label">{t('summary.cheapest')}:</span>{' '}
            {option(summary.cheapest, 'price', 'summary-cheapest')}
          </span>
          {summary.fastest ? (
            <span className="summary-part">
              <span className="summary-label">{t('summary.fastest')}:</span>{' '}
              {option(summary.fastest, 'days', 'summary-fastest')}
            </span>
          ) : null}
        </>
      )}
    </p>
  );
}
