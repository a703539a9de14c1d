// A city input with autocomplete (ARIA combobox) and its postal code beside it. Suggestions come from
// cities:search, ranked by the core (recent places and the built-in table, names before prefixes, the Latin
// layout read as Russian, a postal index as its town); choosing one fills the place's postal code, which
// stays editable, and moves the cursor to the next field (issue #17: a first quote without Tab presses).
//
// The field says whether the core knows the city (issue #9): when nothing matches, the list says so at once
// and offers the closest known cities; after leaving the field, the form shows the same notice until the city
// is fixed. A short form, Latin spelling or index the core recognises is replaced by the place's name.
//
// A pick the core marks as doubtful (issue #17) is asked about in the field before it is taken: a name several
// towns share («Троицк»), an index several towns share, or a town that only starts with what was typed when
// that text names another («Зеленоградск» for «Зеленоград»). The question replaces the list; Enter confirms
// the highlighted place, ↑/↓ choose another, Esc goes back. A text left unconfirmed is asked about again when
// a quote is attempted (the form focuses the field, and the question opens on focus).
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { Input } from '../../components';
import { lookupCity, searchCities, SUGGESTIONS } from './city-lookup';
import { chosen, confirmChoices, readLookup, replacesText, type CityLookup } from './city-match';
import { CityOptions, optionId, type CityQuestion } from './CityOptions';
import './city-field.css';

export interface CityFieldProps {
  /** Prefix of element ids and test ids: "from" / "to". */
  name: string;
  label: string;
  placeholder: string;
  postalLabel: string;
  city: string;
  postal: string;
  onChange: (next: { city: string; postal: string }) => void;
  /** What the core said about the city text (the form shows the notice and blocks a quote it cannot run). */
  onLookup: (lookup: CityLookup) => void;
  /** The form's last answer about this field's text: an unconfirmed one is asked about when focused. */
  lookup: CityLookup | null;
  /** Changes when the form wants the question asked (a quote was attempted with this text unconfirmed). */
  ask?: number;
  /** A place was chosen: the form moves the cursor on (from → to → weight). */
  onChosen?: () => void;
  /** Ids of the messages about this field (in the form's message line). */
  cityDescribedBy?: string | undefined;
  postalDescribedBy?: string | undefined;
  cityInvalid?: boolean;
  postalInvalid?: boolean;
  inputRef?: RefObject<HTMLInputElement | null> | ((el: HTMLInputElement | null) => void);
}

export function CityField(props: CityFieldProps): ReactNode {
  const listId = useId();
  const [items, setItems] = useState<CitySuggestion[]>([]);
  const [question, setQuestion] = useState<CityQuestion | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The postal code our last pick filled in: cleared again when the city text changes. */
  const autoPostal = useRef<string | null>(null);
  /** A pick was just taken: the blur it causes must not look the (stale) typed text up again. */
  const justTook = useRef(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputEl = useRef<HTMLInputElement | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const { inputRef } = props;
  const setInput = useCallback(
    (el: HTMLInputElement | null) => {
      inputEl.current = el;
      if (typeof inputRef === 'function') inputRef(el);
      else if (inputRef) inputRef.current = el;
    },
    [inputRef],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  /** Tells the form what the core thinks of `text` (skipped when the text has changed since). */
  const report = useCallback((lookup: CityLookup) => {
    if (lookup.text === latest.current.city) latest.current.onLookup(lookup);
  }, []);

  // A city restored with the draft (or swapped in from the other side) is checked once, quietly.
  useEffect(() => {
    const text = props.city;
    if (document.activeElement === inputEl.current) return;
    let live = true;
    void lookupCity(text, latest.current.postal).then((l) => {
      if (live) report(l);
    });
    return () => {
      live = false;
    };
  }, [props.city, report]);

  // The form asks: focus the field and open its question (focus alone would not, if it is already here).
  const askToken = props.ask ?? 0;
  const askRef = useRef(askToken);
  useEffect(() => {
    if (askRef.current === askToken) return;
    askRef.current = askToken;
    inputEl.current?.focus();
    askIfUnconfirmed();
  }, [askToken]);

  function search(text: string): void {
    clearTimeout(timer.current);
    const mine = ++seq.current;
    latest.current.onLookup({
      text,
      status: text.trim() === '' ? 'empty' : 'pending',
      match: null,
      closest: [],
    });
    timer.current = setTimeout(
      () => {
        void searchCities(text, SUGGESTIONS, latest.current.postal).then((found) => {
          if (mine !== seq.current) return;
          setItems(found);
          setActive(found.length > 0 && text.trim() !== '' ? 0 : -1);
          // Only while the field still has focus: a late answer must not pop a list under another field.
          if (document.activeElement === inputEl.current) setOpen(found.length > 0 || text.trim() !== '');
          // While typing, only a recognised city is reported (the form's notices wait for the clerk to
          // leave the field; the list already says the rest).
          const lookup = readLookup(text, found);
          if (lookup.status === 'recognised') report(lookup);
        });
      },
      text === '' ? 0 : 60,
    );
  }

  /** Takes `s` for this field; `moveOn`: the cursor goes to the next field (not for Tab, which moves itself). */
  function take(s: CitySuggestion, moveOn: boolean): void {
    const postal = s.postal_code ?? '';
    autoPostal.current = postal;
    props.onChange({ city: s.name, postal });
    props.onLookup(chosen(s));
    setOpen(false);
    setActive(-1);
    setQuestion(null);
    justTook.current = true;
    if (moveOn) props.onChosen?.();
  }

  /** A pick: taken at once, or asked about first when the core says it may not be what was meant. */
  function pick(s: CitySuggestion, moveOn: boolean): boolean {
    if (question) {
      take(s, moveOn);
      return true;
    }
    if (s.confirm === null) {
      take(s, moveOn);
      return true;
    }
    setQuestion({ typed: props.city, choices: confirmChoices(s, items) });
    setActive(0);
    setOpen(true);
    return false;
  }

  function onCityInput(text: string): void {
    const postal = autoPostal.current !== null && props.postal === autoPostal.current ? '' : props.postal;
    if (postal !== props.postal) autoPostal.current = null;
    justTook.current = false;
    setQuestion(null);
    props.onChange({ city: text, postal });
    search(text);
  }

  /** Opens the question for a text the form found doubtful (a quote was attempted, or the field refocused). */
  function askIfUnconfirmed(): boolean {
    const l = props.lookup;
    if (!l || l.status !== 'unconfirmed' || l.text !== props.city || !l.match) return false;
    setItems(l.closest);
    setQuestion({ typed: props.city, choices: confirmChoices(l.match, l.closest) });
    setActive(0);
    setOpen(true);
    return true;
  }

  // Leaving the field without picking keeps the postal code as it is: an empty one is resolved by the core
  // from the city table (the same main code a pick would have shown). Filling it in on blur would race
  // with a fast typist already typing the postal code. A text the core reads as another way of writing a
  // known place (a short form, the Latin layout, a postal index) is the one exception: it is replaced by the
  // place's name, so the form and the history say what it is.
  function onBlur(): void {
    setOpen(false);
    setQuestion(null);
    if (justTook.current) {
      justTook.current = false;
      return;
    }
    const text = props.city;
    void lookupCity(text, props.postal).then((l) => {
      if (l.text !== latest.current.city) return;
      if (l.status === 'recognised' && l.match && replacesText(l.match)) {
        const postal = latest.current.postal === '' ? (l.match.postal_code ?? '') : latest.current.postal;
        if (postal !== latest.current.postal) autoPostal.current = postal;
        latest.current.onChange({ city: l.match.name, postal });
        latest.current.onLookup(chosen(l.match));
        return;
      }
      report(l);
    });
  }

  const options = question ? question.choices : items;
  const unknown =
    !question && props.city.trim() !== '' && (items.length === 0 || items[0]!.match === 'closest');
  const showList = open && (options.length > 0 || props.city.trim() !== '');
  const activeId = showList && active >= 0 && active < options.length ? optionId(listId, active) : undefined;

  return (
    <div className="city-field">
      <div className="field city-input">
        <label htmlFor={`${props.name}-city`}>{props.label}</label>
        <div className="combobox">
          <Input
            id={`${props.name}-city`}
            ref={setInput}
            role="combobox"
            aria-expanded={showList}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            aria-describedby={props.cityDescribedBy}
            invalid={props.cityInvalid ?? false}
            placeholder={props.placeholder}
            value={props.city}
            data-testid={`${props.name}-city`}
            maxLength={120}
            onChange={(e) => onCityInput(e.currentTarget.value)}
            onFocus={() => {
              if (askIfUnconfirmed()) return;
              if (props.city.trim() === '') search('');
            }}
            onBlur={onBlur}
            onKeyDown={(e) => {
              const current = showList && active >= 0 ? options[active] : undefined;
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                if (!showList) {
                  if (!askIfUnconfirmed()) search(props.city);
                  return;
                }
                const n = options.length;
                if (n === 0) return;
                setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
              } else if (e.key === 'Enter' && current) {
                // Enter picks the suggestion (or confirms it) and moves on; Enter in the next field quotes.
                e.preventDefault();
                pick(current, true);
              } else if (e.key === 'Escape' && (showList || question)) {
                e.preventDefault();
                e.stopPropagation();
                if (question) {
                  setQuestion(null);
                  setActive(items.length > 0 ? 0 : -1);
                } else setOpen(false);
              } else if (e.key === 'Tab' && !e.shiftKey && !question && current && props.city.trim() !== '') {
                // Tab takes the highlighted suggestion and moves on as Tab does; a doubtful one is asked first.
                // Tab away from a question leaves it open: the form asks again before quoting.
                if (!pick(current, false)) e.preventDefault();
              }
            }}
          />
          {showList ? (
            <CityOptions
              name={props.name}
              listId={listId}
              options={options}
              question={question}
              unknown={unknown}
              active={active}
              onHover={setActive}
              onPick={(s) => pick(s, true)}
            />
          ) : null}
        </div>
      </div>
      <div className="field postal-input">
        <label htmlFor={`${props.name}-postal`}>{props.postalLabel}</label>
        <Input
          id={`${props.name}-postal`}
          inputMode="numeric"
          maxLength={7}
          value={props.postal}
          invalid={props.postalInvalid ?? false}
          aria-describedby={props.postalDescribedBy}
          data-testid={`${props.name}-postal`}
          onChange={(e) => {
            autoPostal.current = null;
            props.onChange({ city: props.city, postal: e.currentTarget.value });
          }}
        />
      </div>
    </div>
  );
}
