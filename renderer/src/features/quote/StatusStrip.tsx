// One chip per carrier: ◌ waiting → ● answered with its time, or the state of one that gave no rate (issue
// #9). The reason is said once, in «Не рассчитано» below (#17): a chip shows it by its mark and colour — red ✕
// only for a carrier that failed, a neutral – for an expected verdict (over its limits, no service), ‖ for one
// not asked for now — with the reason as its tooltip and for screen readers. A carrier skipped by its breaker
// says until when, and offers to ask it now.
import type { ReactNode } from 'react';
import { Button } from '../../components';
import { useLang, useT } from '../../i18n';
import { formatSeconds } from '../../lib/format';
import type { CarrierRun } from './run';
import { formatTimeOfDay, toneOf } from './unavailable';
import './unavailable.css';

const MARK = { neutral: '–', fault: '✕', paused: '‖' } as const;

export function StatusStrip(props: {
  carriers: readonly CarrierRun[];
  nameOf: (code: string) => string;
  /** Carriers this run already asked at once: asking again would be skipped again. */
  probed?: readonly string[];
  /** «Спросить сейчас»; absent while a run is going. */
  onAskNow?: ((code: string) => void) | undefined;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  if (props.carriers.length === 0) return null;
  return (
    <ul className="status-strip" aria-label={t('status.label')} aria-live="polite" data-testid="status-strip">
      {props.carriers.map((c) => {
        const name = props.nameOf(c.code);
        const tone = c.state === 'unavailable' && c.kind ? toneOf(c.kind) : undefined;
        return (
          <li
            key={c.code}
            className={`status status-${c.state}${tone ? ` status-${tone}` : ''}${c.kind === 'disabled' ? ' status-off' : ''}`}
            data-testid={`carrier-status-${c.code}`}
            data-state={c.state}
            data-kind={c.kind}
            data-tone={tone}
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
                  {c.kind === 'disabled' ? '○' : MARK[tone ?? 'neutral']}
                </span>
                <span className="status-name">{name}</span>
                {/* Said in words in «Не рассчитано»; here only for those who cannot see the mark. */}
                <span className="sr-only">: {c.kind ? t(`reason.${c.kind}`) : ''}</span>
                {c.kind === 'temporarily_skipped' ? (
                  <SkippedUntil
                    code={c.code}
                    name={name}
                    retryAt={c.retryAt}
                    asked={props.probed?.includes(c.code) ?? false}
                    onAskNow={props.onAskNow}
                  />
                ) : null}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** «до 14:32:05 · спросить сейчас»: until when the breaker rests, and a way to ask at once. */
function SkippedUntil(props: {
  code: string;
  name: string;
  retryAt: number | undefined;
  asked: boolean;
  onAskNow: ((code: string) => void) | undefined;
}): ReactNode {
  const t = useT('quote');
  const { lang } = useLang();
  return (
    <>
      {props.retryAt !== undefined ? (
        <span className="status-until" data-testid={`skipped-until-${props.code}`}>
          {t('skip.until', { time: formatTimeOfDay(props.retryAt, lang) })}
        </span>
      ) : null}
      {props.asked ? (
        <span className="status-until">{t('skip.noEarlier')}</span>
      ) : props.onAskNow ? (
        <Button
          variant="ghost"
          size="sm"
          className="status-ask"
          onClick={() => props.onAskNow?.(props.code)}
          title={t('skip.askNowHint', { name: props.name })}
          data-testid={`ask-now-${props.code}`}
        >
          {t('skip.askNow')}
        </Button>
      ) : null}
    </>
  );
}
