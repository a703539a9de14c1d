// Two cells of the history list (#17 item 8): «Дешевле всего» with the carrier that gave the price, and the
// carriers that answered, a partial answer marked «3 из 8» with the reasons of the others in its tooltip.
import type { ReactNode } from 'react';
import type { HistoryRow } from '../../../../core/desk/contract';
import { Badge } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatMoney } from '../../lib/format';
import { reasonsText } from '../quote/NotRated';
import { answeredOf } from './logic';

export function Cheapest(props: { row: HistoryRow; nameOf: (code: string) => string }): ReactNode {
  const t = useT('history');
  const { lang } = useLang();
  const r = props.row;
  if (r.cheapest_kopecks === null) return <span className="muted">{t('noPrice')}</span>;
  const carrier = r.cheapest_carrier ? props.nameOf(r.cheapest_carrier) : null;
  return (
    <span className="cheapest" data-testid="history-cheapest">
      {carrier ? (
        <span className="cheapest-carrier cut" title={carrier}>
          {carrier}
        </span>
      ) : null}
      <span className="cheapest-price">{formatMoney(r.cheapest_kopecks, lang)}</span>
    </span>
  );
}

export function Answered(props: { row: HistoryRow; nameOf: (code: string) => string }): ReactNode {
  const t = useT('history');
  const tq = useT('quote');
  const r = props.row;
  const names = r.carriers.map((c) => props.nameOf(c)).join(', ');
  const { answered, asked } = answeredOf(r);
  const partial = r.failures.length > 0;
  const why = partial
    ? reasonsText(
        r.failures.map((f) => ({ code: f.carrier, kind: f.kind, detail: f.detail })),
        null,
        props.nameOf,
        tq,
      )
    : '';
  return (
    <span className="answered">
      {partial ? (
        <Badge tone="warn" title={`${t('unavailable')}: ${why}`} data-testid="history-partial">
          {t('partial', { n: answered, of: asked })}
        </Badge>
      ) : null}
      <span className="cut" title={names || undefined}>
        {names || '—'}
      </span>
    </span>
  );
}
