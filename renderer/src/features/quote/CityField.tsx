// A city input with autocomplete (ARIA combobox) and its postal code beside it. Suggestions come from
// cities:search (places used recently first, then the built-in city table); choosing one fills the city's
// main postal code, which stays editable.
//
// The field also says whether the core knows the city (issue #9): when nothing matches, the list says so at
// once and offers the closest known cities instead; after leaving the field, the form shows the same notice
// (CityNotice) until the city is fixed. A name the core resolves as an alias is replaced by its real name.
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { Input } from '../../components';
import { useT } from '../../i18n';
import { isAlias, recognisedCity } from './city-match';
import { closestCities, lookupCity, searchCities, type CityLookup } from './city-lookup';

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
  /** Ids of the messages about this field (in the form's message line). */
  cityDescribedBy?: string | undefined;
  postalDescribedBy?: string | undefined;
  cityInvalid?: boolean;
  postalInvalid?: boolean;
  inputRef?: RefObject<HTMLInputElement | null> | ((el: HTMLInputElement | null) => void);
}

export function CityField(props: CityFieldProps): ReactNode {
  const t = useT('quote');
  const listId = useId();
  const [items, setItems] = useState<CitySuggestion[]>([]);
  /** The closest cities when nothing matches the text (shown in the list under "not recognised"). */
  const [closest, setClosest] = useState<CitySuggestion[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The postal code our last pick filled in: cleared again when the city text changes. */
  const autoPostal = useRef<string | null>(null);
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
    void lookupCity(text).then((l) => {
      if (live) report(l);
    });
    return () => {
      live = false;
    };
  }, [props.city, report]);

  function search(text: string, openWhenFound: boolean): void {
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
        void searchCities(text, 8).then(async (found) => {
          if (mine !== seq.current) return;
          setItems(found);
          setActive(found.length > 0 && text.trim() !== '' ? 0 : -1);
          // Only while the field still has focus: a late answer must not pop a list under another field.
          if (openWhenFound && document.activeElement === inputEl.current)
            setOpen(found.length > 0 || text.trim() !== '');
          if (text.trim() === '') {
            setClosest(null);
            return;
          }
          // While typing, only a recognised city is reported (the form's notice waits for the clerk to
          // leave the field). When nothing starts with the text, the list says so at once and offers the
          // closest cities instead.
          const match = recognisedCity(text, found);
          if (match) {
            setClosest(null);
            report({ text, status: 'recognised', match, closest: [] });
            return;
          }
          if (found.length > 0) {
            setClosest(null);
            return;
          }
          const near = await closestCities(text, found);
          if (mine !== seq.current) return;
          setClosest(near);
          if (near.length > 0) setActive(0);
        });
      },
      text === '' ? 0 : 60,
    );
  }

  function pick(s: CitySuggestion): void {
    const postal = s.postal_code ?? '';
    autoPostal.current = postal;
    props.onChange({ city: s.name, postal });
    props.onLookup({ text: s.name, status: 'recognised', match: s, closest: [] });
    setOpen(false);
    setActive(-1);
    setClosest(null);
  }

  function onCityInput(text: string): void {
    const postal = autoPostal.current !== null && props.postal === autoPostal.current ? '' : props.postal;
    if (postal !== props.postal) autoPostal.current = null;
    props.onChange({ city: text, postal });
    search(text, true);
  }

  // Leaving the field without picking keeps the postal code as it is: an empty one is resolved by the core
  // from the city table (the same main code a pick would have shown). Filling it in on blur would race
  // with a fast typist already typing the postal code. A text the core reads as an alias of a known city
  // is the one exception: it is replaced by the city's name, so the form and the history say what it is.
  function onBlur(): void {
    setOpen(false);
    const text = props.city;
    void lookupCity(text).then((l) => {
      if (l.text !== latest.current.city) return;
      if (l.status === 'recognised' && l.match && isAlias(text, l.match)) {
        const postal = latest.current.postal === '' ? (l.match.postal_code ?? '') : latest.current.postal;
        if (postal !== latest.current.postal) autoPostal.current = postal;
        latest.current.onChange({ city: l.match.name, postal });
        return;
      }
      report(l);
    });
  }

  const options = closest ?? items;
  const showList = open && (options.length > 0 || props.city.trim() !== '');
  const activeId = showList && active >= 0 ? `${listId}-${active}` : undefined;

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
              if (props.city.trim() === '') search('', true);
            }}
            onBlur={onBlur}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                if (!showList) {
                  search(props.city, true);
                  return;
                }
                const n = options.length;
                if (n === 0) return;
                setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
              } else if (e.key === 'Enter' && showList && active >= 0 && options[active]) {
                // Enter picks the suggestion; the next Enter quotes.
                e.preventDefault();
                pick(options[active]);
              } else if (e.key === 'Escape' && showList) {
                e.preventDefault();
                e.stopPropagation();
                setOpen(false);
              } else if (
                e.key === 'Tab' &&
                showList &&
                active >= 0 &&
                options[active] &&
                props.city.trim() !== ''
              ) {
                pick(options[active]);
              }
            }}
          />
          {showList ? (
            <ul
              className="combobox-list"
              role="listbox"
              id={listId}
              data-testid={`${props.name}-suggestions`}
            >
              {closest !== null || items.length === 0 ? (
                <li className="combobox-empty" role="presentation" data-testid={`${props.name}-not-found`}>
                  {closest && closest.length > 0 ? t('city.unknownClosest') : t('city.unknownNone')}
                </li>
              ) : null}
              {options.map((s, i) => (
                <li
                  key={`${s.name}|${s.region}|${s.postal_code ?? ''}`}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => pick(s)}
                >
                  <span className="combobox-name">{s.name}</span>
                  <span className="combobox-meta">
                    {s.recent ? <span className="combobox-recent">{t('recent')}</span> : null}
                    {s.region ? <span>{s.region}</span> : null}
                    {s.postal_code ? <span className="num">{s.postal_code}</span> : null}
                  </span>
                </li>
              ))}
            </ul>
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
