// One chip per carrier: ◌ waiting → ● answered with its time, or ✕ with the reason in plain words (its
// tooltip explains it in a sentence, in the UI language: issue #9). A carrier switched off in Carriers is
// listed too, with a link that turns it on.
import type { ReactNode } from 'react';
import { useLang, useT } from '../../i18n';
import { formatSeconds } from '../../lib/format';
import { EnableCarrierLink } from './NotRated';
import type { CarrierRun } from './run';

export function StatusStrip(props: {
  carriers: readonly CarrierRun[];
  nameOf: (code: string) => string;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  if (props.carriers.length === 0) return null;
  return (
    <ul className="status-strip" aria-label={t('status.label')} aria-live="polite" data-testid="status-strip">
      {props.carriers.map((c) => {
        const name = props.nameOf(c.code);
        return (
          <li
            key={c.code}
            className={`status status-${c.state}${c.kind === 'disabled' ? ' status-off' : ''}`}
            data-testid={`carrier-status-${c.code}`}
            data-state={c.state}
            data-kind={c.kind}
            title={c.state === 'unavailable' && c.kind ? t(`reasonHint.${c.kind}`) : undefined}
          >
            {c.state === 'waiting' ? (
              <>
                <span className="status-icon" aria-hidden="true">
                  ◌
                </span>
                <span>{name}…</span>
                <span className="sr-only">{t('status.waiting')}</span>
              </>
            ) : c.state === 'answered' ? (
              <>
                <span className="status-icon" aria-hidden="true">
                  ●
                </span>
                <span>{name}</span>
                {c.elapsedMs !== undefined ? (
                  <span className="status-time">{formatSeconds(c.elapsedMs, lang)}</span>
                ) : null}
              </>
            ) : (
              <>
                <span className="status-icon" aria-hidden="true">
                  {c.kind === 'disabled' ? '○' : '✕'}
                </span>
                <span>
                  {name}: {c.kind ? t(`reason.${c.kind}`) : ''}
                </span>
                {c.kind === 'disabled' ? <EnableCarrierLink code={c.code} name={name} /> : null}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
