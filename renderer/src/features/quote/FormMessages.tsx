// The messages of one row of the quote form, in one line under the row. A message under its own field
// would widen the field's column and push the rest of the row sideways (issue #9); here the fields never
// move, each message names its field, and the field points at it (aria-describedby, red border).
import type { ReactNode } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { useT } from '../../i18n';

export interface FormMessage {
  /** The element id the field's aria-describedby names. */
  id: string;
  label: string;
  text: ReactNode;
  tone: 'error' | 'notice';
}

export function FormMessages(props: { items: readonly FormMessage[]; 'data-testid'?: string }): ReactNode {
  if (props.items.length === 0) return null;
  return (
    <ul className="qf-messages" data-testid={props['data-testid']}>
      {props.items.map((m) => (
        <li key={m.id} className={m.tone === 'error' ? 'qf-error' : 'qf-notice'}>
          <span className="qf-message-label">{m.label}:</span>{' '}
          <span id={m.id} role={m.tone === 'error' ? 'alert' : undefined}>
            {m.text}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** «Масква» — not recognised; the closest known cities as buttons that pick one. */
export function CityNotice(props: {
  text: string;
  closest: readonly CitySuggestion[];
  onPick: (s: CitySuggestion) => void;
  testId: string;
  /** Only the choices (the sentence before them says the rest). */
  choicesOnly?: boolean;
}): ReactNode {
  const t = useT('quote');
  if (props.choicesOnly && props.closest.length === 0) return null;
  return (
    <span data-testid={props.testId}>
      {props.choicesOnly ? null : `${t('city.notice', { text: props.text.trim() })} `}
      {props.closest.length > 0 ? (
        <>
          {t('city.noticeMaybe')}{' '}
          {props.closest.map((s, i) => (
            <span key={`${s.name}|${s.region}`}>
              {i > 0 ? ', ' : null}
              <button
                type="button"
                className="link-button"
                onClick={() => props.onPick(s)}
                aria-label={t('city.pick', { name: s.region ? `${s.name} (${s.region})` : s.name })}
                data-testid={`${props.testId}-pick`}
              >
                {s.name}
              </button>
              {s.region && s.region !== s.name ? <span className="muted"> ({s.region})</span> : null}
            </span>
          ))}
        </>
      ) : props.choicesOnly ? null : (
        t('city.noticeNone')
      )}
    </span>
  );
}
