// «Не рассчитано: …» under the results: every carrier that gave no rate, with the reason in plain words
// and, where the clerk can fix it, a link (switched off → the carrier's card, to switch it on; not set up →
// Carriers).
import type { ReactNode } from 'react';
import { hrefFor, navigate } from '../../app/router';
import { useT } from '../../i18n';
import type { CarrierRun } from './run';

/** A link to the carrier's card on the Carriers screen, where its switch has the focus. */
export function EnableCarrierLink(props: { code: string; name: string }): ReactNode {
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
      {t('reason.fix.disabled')} →
    </a>
  );
}

export function NotRated(props: {
  carriers: readonly CarrierRun[];
  nameOf: (code: string) => string;
}): ReactNode {
  const t = useT('quote');
  const unavailable = props.carriers.filter((c) => c.state === 'unavailable');
  if (unavailable.length === 0) return null;
  return (
    <p className="not-rated" data-testid="not-rated">
      <strong>{t('notRated')}:</strong>{' '}
      {unavailable.map((c, i) => (
        <span key={c.code} data-carrier={c.code} title={c.kind ? t(`reasonHint.${c.kind}`) : undefined}>
          {i > 0 ? '; ' : ''}
          {props.nameOf(c.code)} — {c.kind ? t(`reason.${c.kind}`) : ''}
          {c.kind === 'disabled' ? (
            <>
              {' '}
              (<EnableCarrierLink code={c.code} name={props.nameOf(c.code)} />)
            </>
          ) : c.kind === 'not_configured' ? (
            <>
              {' '}
              <a
                href={hrefFor('carriers', c.code)}
                onClick={(e) => {
                  e.preventDefault();
                  navigate('carriers', c.code);
                }}
              >
                ({t('reason.fix.not_configured')})
              </a>
            </>
          ) : null}
        </span>
      ))}
    </p>
  );
}
