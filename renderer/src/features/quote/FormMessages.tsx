// The messages of one row of the quote form, in one line under the row. A message under its own field
// would widen the field's column and push the rest of the row sideways (issue #9); here the fields never
// move, each message names its field, and the field points at it (aria-describedby, red border). The line
// keeps its height when empty (issue #17), so the row below never jumps either.
import type { ReactNode } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { useT } from '../../i18n';
import { placeKey } from './city-match';

export interface FormMessage {
  /** The element id the field's aria-describedby names. */
  id: string;
  label: string;
  text: ReactNode;
  tone: 'error' | 'notice';
}

export function FormMessages(props: { items: readonly FormMessage[]; 'data-testid'?: string }): ReactNode {
  // The line is there even when empty (issue #17): its height is reserved, so a message appearing never
  // moves the fields below it. One line only; a message too long for it ends in "…" with the whole text in
  // its tooltip (and read in full through the field's aria-describedby).
  return (
    <ul className="qf-messages" data-testid={props['data-testid']}>
      {props.items.map((m) => (
        <li
          key={m.id}
          className={m.tone === 'error' ? 'qf-error' : 'qf-notice'}
          title={typeof m.text === 'string' ? `${m.label}: ${m.text}` : undefined}
        >
          <span className="qf-message-label">{m.label}:</span>{' '}
          <span id={m.id} role={m.tone === 'error' ? 'alert' : undefined}>
            {m.text}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** What a city notice is about: a text the core does not know, or one that names several places. */
export type CityNoticeKind = 'unknown' | 'namesakes' | 'index';

/**
 * «Масква» — not recognised; «Троицк» — several towns of that name; an index several towns share: the
 * places to choose from as buttons that pick one.
 */
export function CityNotice(props: {
  text: string;
  kind?: CityNoticeKind;
  closest: readonly CitySuggestion[];
  onPick: (s: CitySuggestion) => void;
  testId: string;
  /** Only the choices (the sentence before them says the rest). */
  choicesOnly?: boolean;
}): ReactNode {
  const t = useT('quote');
  const ti = useT('quoteInput');
  const kind = props.kind ?? 'unknown';
  if (props.choicesOnly && props.closest.length === 0) return null;
  const text = props.text.trim();
  const lead =
    kind === 'namesakes'
      ? ti('notice.namesakes', { text })
      : kind === 'index'
        ? ti('notice.index', { text })
        : `${t('city.notice', { text })} ${props.closest.length > 0 ? t('city.noticeMaybe') : t('city.noticeNone')}`;
  return (
    <span data-testid={props.testId}>
      {props.choicesOnly ? (kind === 'unknown' ? `${t('city.noticeMaybe')} ` : null) : `${lead} `}
      {props.closest.map((s, i) => (
        <span key={placeKey(s)}>
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
    </span>
  );
}
