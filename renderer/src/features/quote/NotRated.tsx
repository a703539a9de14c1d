// «Не рассчитано: …» under the results (and under a quote in History): the one place a carrier's reason is
// said in words (#17). Carriers are grouped by cause — «ПЭК, Деловые Линии — город «Нетгородово» не найден
// (проверьте название)» — with advice that never asks for what the form already holds and, where the clerk
// can fix it, a link (switched off → the carrier's card, to switch it on; not set up → Carriers).
import type { ReactNode } from 'react';
import type { QuoteRequestInput } from '../../../../core/contract/quote-ext';
import { hrefFor, navigate } from '../../app/router';
import { useT, type ScopedT } from '../../i18n';
import { groupUnavailable, toneOf, type Failed, type ReasonGroup } from './unavailable';

/** A link to the carrier's card on the Carriers screen, where its switch has the focus. */
export function EnableCarrierLink(props: { code: string; name: string; label?: string }): ReactNode {
  const t = useT('quote');
  return (
    <a
      href={hrefFor('carriers', props.code)}
      className="status-fix"
      onClick={(e) => {
        e.preventDefault();
        navigate('carriers', props.code);
      }}
      aria-label={`${t('reason.fix.disabled')}: ${props.name}`}
      data-testid={`enable-carrier-${props.code}`}
    >
      {props.label ?? t('reason.fix.disabled')} →
    </a>
  );
}

export function NotRated(props: {
  failed: readonly Failed[];
  shipment: QuoteRequestInput | null;
  nameOf: (code: string) => string;
  label?: string;
  'data-testid'?: string;
}): ReactNode {
  const t = useT('quote');
  const groups = groupUnavailable(props.failed, props.shipment);
  if (groups.length === 0) return null;
  return (
    <p className="not-rated" data-testid={props['data-testid'] ?? 'not-rated'}>
      <strong>{props.label ?? t('notRated')}:</strong>{' '}
      {groups.map((g, i) => (
        <span
          key={g.kind}
          className={`not-rated-group tone-${toneOf(g.kind)}`}
          data-kind={g.kind}
          data-carriers={g.codes.join(' ')}
          title={t(`reasonHint.${g.kind}`)}
        >
          {i > 0 ? '; ' : ''}
          {g.codes.map((c) => props.nameOf(c)).join(', ')} — {reasonOf(g, t)}
          <Fix group={g} nameOf={props.nameOf} />
        </span>
      ))}
    </p>
  );
}

function reasonOf(g: ReasonGroup, t: ScopedT<'quote'>): string {
  if (g.kind === 'city_not_found' && g.city) return t('unavail.cityNamed', { city: g.city });
  return t(`reason.${g.kind}`);
}

/** The same grouped reasons as one plain line (a tooltip): «5Post, DPD — больше, чем берёт перевозчик; …». */
export function reasonsText(
  failed: readonly Failed[],
  shipment: QuoteRequestInput | null,
  nameOf: (code: string) => string,
  t: ScopedT<'quote'>,
): string {
  return groupUnavailable(failed, shipment)
    .map(
      (g) =>
        `${g.codes.map((c) => nameOf(c)).join(', ')} — ${reasonOf(g, t)}${g.advice ? ` (${t(`advice.${g.advice}`)})` : ''}`,
    )
    .join('; ');
}

/** What the clerk can do about it, in brackets after the reason; nothing when there is nothing to do. */
function Fix(props: { group: ReasonGroup; nameOf: (code: string) => string }): ReactNode {
  const t = useT('quote');
  const g = props.group;
  if (g.advice) return <> ({t(`advice.${g.advice}`)})</>;
  if (g.kind === 'disabled') {
    const [only] = g.codes;
    if (g.codes.length === 1 && only)
      return (
        <>
          {' '}
          (<EnableCarrierLink code={only} name={props.nameOf(only)} />)
        </>
      );
    // Several switched off: one link per carrier, each named.
    return (
      <>
        {' '}
        ({t('reason.fix.disabled')}:{' '}
        {g.codes.map((code, i) => (
          <span key={code}>
            {i > 0 ? ', ' : ''}
            <EnableCarrierLink code={code} name={props.nameOf(code)} label={props.nameOf(code)} />
          </span>
        ))}
        )
      </>
    );
  }
  if (g.kind === 'not_configured') {
    // The first carrier's card; the others are beside it on the same screen.
    const first = g.codes[0] ?? '';
    return (
      <>
        {' '}
        <a
          href={hrefFor('carriers', first)}
          onClick={(e) => {
            e.preventDefault();
            navigate('carriers', first);
          }}
        >
          ({t('reason.fix.not_configured')})
        </a>
      </>
    );
  }
  return null;
}
