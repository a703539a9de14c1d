// The city field's list (an ARIA listbox under the input): the suggestions for the text, or, when a pick
// needs confirming (issue #17), the question and the places it is weighed against. The input keeps the
// focus either way; ↑/↓ move the highlight (aria-activedescendant) and Enter takes it.
import type { ReactNode } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { useT } from '../../i18n';
import { placeKey } from './city-match';

/** A pick waiting for the clerk's word: the text as typed, and the pick first among its alternatives. */
export interface CityQuestion {
  typed: string;
  choices: CitySuggestion[];
}

export interface CityOptionsProps {
  /** Prefix of the field's test ids ("from" / "to"). */
  name: string;
  listId: string;
  options: readonly CitySuggestion[];
  question: CityQuestion | null;
  /** The list says the text is unknown (with the closest places, or none). */
  unknown: boolean;
  active: number;
  onHover: (i: number) => void;
  onPick: (s: CitySuggestion) => void;
}

export function optionId(listId: string, i: number): string {
  return `${listId}-${i}`;
}

export function CityOptions(props: CityOptionsProps): ReactNode {
  const t = useT('quote');
  const ti = useT('quoteInput');
  const { question } = props;
  const askId = `${props.listId}-ask`;
  const pick = question?.choices[0];
  const heading = !pick
    ? null
    : pick.confirm === 'far'
      ? ti('ask.far', { typed: question.typed.trim(), name: pick.name, region: pick.region })
      : pick.match === 'postal'
        ? ti('ask.index', { index: question.typed.trim() })
        : ti('ask.namesakes', { name: pick.name });
  return (
    <ul
      className={`combobox-list${question ? ' combobox-asking' : ''}`}
      role="listbox"
      id={props.listId}
      aria-labelledby={question ? askId : undefined}
      data-testid={`${props.name}-suggestions`}
    >
      {question ? (
        <li className="combobox-ask" role="presentation" id={askId} data-testid={`${props.name}-question`}>
          {heading}
        </li>
      ) : props.unknown ? (
        <li className="combobox-empty" role="presentation" data-testid={`${props.name}-not-found`}>
          {props.options.length > 0 ? t('city.unknownClosest') : t('city.unknownNone')}
        </li>
      ) : null}
      {props.options.map((s, i) => (
        <li
          key={placeKey(s)}
          id={optionId(props.listId, i)}
          role="option"
          aria-selected={i === props.active}
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => props.onHover(i)}
          onClick={() => props.onPick(s)}
        >
          <span className="combobox-name">{s.name}</span>
          <span className="combobox-meta">
            {s.recent ? <span className="combobox-recent">{t('recent')}</span> : null}
            {s.region ? <span>{s.region}</span> : null}
            {s.postal_code ? <span className="num">{s.postal_code}</span> : null}
          </span>
        </li>
      ))}
      {question ? (
        <li className="combobox-keys" role="presentation">
          {ti('ask.keys')}
        </li>
      ) : null}
    </ul>
  );
}
