// The clerk's quote (#21) in a rate's row, shared by the Quote screen and History: the fees in their own
// right-aligned columns (so money lines up down the table), what the price leaves out in words under the
// service, days with their kind and the expected delivery dates, the customer's price. A rate without the
// #21 fields (an older result) shows exactly what it always did.
import type { ReactNode } from 'react';
import { useLang, useT } from '../../i18n';
import { formatDateRange, formatDay } from '../../lib/dates';
import { formatDays, formatMoney } from '../../lib/format';
import type { Rate } from './logic';
import './clerk-quote.css';
import { breakdownText, notPricedWords, type FeeKind } from './rate-extras';

/** A fee column's header: «Страховка», «За НП» (its full name in the tooltip). */
export function FeeHeader(props: { kind: FeeKind }): ReactNode {
  const tx = useT('quoteExt');
  return props.kind === 'insurance' ? (
    <>{tx('col.insurance')}</>
  ) : (
    <span title={tx('col.codFeeHint')}>{tx('col.codFee')}</span>
  );
}

/** The service's name, and under it what its price leaves out. */
export function ServiceCell(props: { rate: Rate }): ReactNode {
  const tx = useT('quoteExt');
  const notes = props.rate.options_not_priced ?? [];
  const words = notes.map((n) => notPricedWords(n, tx));
  return (
    <>
      <span className="cell-line" title={props.rate.service_name}>
        {props.rate.service_name}
      </span>
      {words.length > 0 ? (
        <span className="cell-sub rate-not-priced" title={words.join('; ')} data-testid="rate-not-priced">
          ⚠ {words.join('; ')}
        </span>
      ) : null}
    </>
  );
}

/** A fee: its amount; «—» where the price leaves it out (said under the service); «в цене» when not given apart. */
export function FeeCell(props: { rate: Rate; kind: FeeKind }): ReactNode {
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const { rate, kind } = props;
  const amount = kind === 'insurance' ? rate.breakdown?.insurance_kopecks : rate.breakdown?.cod_fee_kopecks;
  const left = (rate.options_not_priced ?? []).find((n) => n.option === kind);
  if (left) {
    return (
      <span className="muted" title={notPricedWords(left, tx)} data-testid={`fee-${kind}`}>
        —
      </span>
    );
  }
  if (amount === null || amount === undefined) {
    return (
      <span className="muted" title={tx('fee.inPriceHint')} data-testid={`fee-${kind}`}>
        {tx('fee.inPrice')}
      </span>
    );
  }
  return <span data-testid={`fee-${kind}`}>{formatMoney(amount, lang)}</span>;
}

/** Days with their kind («2–3 раб. дн.»), and under them the expected dates («28–30 ноября»). */
export function DaysCell(props: { rate: Rate }): ReactNode {
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const r = props.rate;
  const days = formatDays(r.days_min, r.days_max, lang);
  const dates = formatDateRange(r.delivery_date_min, r.delivery_date_max, lang);
  if (!r.days_kind || days === '—') return days;
  const kind = r.days_kind === 'working' ? tx('days.working') : tx('days.calendar');
  // «2–3 дн.» → «2–3 раб. дн.»: the kind goes in before the unit.
  const withKind = days.replace(lang === 'ru' ? /дн\.$/ : /days?$/, kind);
  const hint = tx('dates.hint', {
    kind: tx(r.days_kind === 'working' ? 'days.workingLong' : 'days.calendarLong'),
    date: r.ship_date ? formatDay(r.ship_date, lang) : '—',
  });
  return (
    <>
      <span className="cell-line" title={hint} data-testid="rate-days">
        {withKind}
      </span>
      {dates ? (
        <span className="cell-sub" title={hint} data-testid="rate-dates">
          {dates}
        </span>
      ) : null}
    </>
  );
}

/** The carrier's total, its parts in the tooltip. */
export function PriceCell(props: { rate: Rate }): ReactNode {
  const tx = useT('quoteExt');
  const { lang } = useLang();
  const parts = breakdownText(props.rate, lang, (k) => tx(`breakdown.${k}`));
  return (
    <span title={parts ?? undefined} data-testid="rate-price">
      {formatMoney(props.rate.price_kopecks, lang)}
    </span>
  );
}

/** The customer's price by the resale rule; «—» for a rate no rule applies to. */
export function CustomerCell(props: { rate: Rate }): ReactNode {
  const { lang } = useLang();
  const c = props.rate.customer_price_kopecks;
  return c === null || c === undefined ? (
    <span className="muted">—</span>
  ) : (
    <span data-testid="rate-customer-price">{formatMoney(c, lang)}</span>
  );
}
