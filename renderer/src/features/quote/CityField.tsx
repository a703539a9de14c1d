// A city input with autocomplete (ARIA combobox) and its postal code beside it. Suggestions come from
// cities:search (places used recently first, then the built-in city table); choosing one fills the city's
// main postal code, which stays editable.
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { CitySuggestion } from '../../../../core/desk/contract';
import { call, hasDeskApi } from '../../api/client';
import { Input } from '../../components';
import { useT } from '../../i18n';

export interface CityFieldProps {
  /** Prefix of element ids and test ids: "from" / "to". */
  name: string;
  label: string;
  placeholder: string;
  postalLabel: string;
  city: string;
  postal: string;
  onChange: (next: { city: string; postal: string }) => void;
  cityError?: string | undefined;
  postalError?: string | undefined;
  inputRef?: RefObject<HTMLInputElement | null> | ((el: HTMLInputElement | null) => void);
}

export function CityField(props: CityFieldProps): ReactNode {
  const t = useT('quote');
  const listId = useId();
  const [items, setItems] = useState<CitySuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The postal code our last pick filled in: cleared again when the city text changes. */
  const autoPostal = useRef<string | null>(null);
  const query = useRef<{ text: string; seq: number }>({ text: '', seq: 0 });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputEl = useRef<HTMLInputElement | null>(null);
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

  function search(text: string, openWhenFound: boolean): void {
    if (!hasDeskApi()) return;
    clearTimeout(timer.current);
    const seq = ++query.current.seq;
    query.current.text = text;
    timer.current = setTimeout(
      () => {
        call((api) => api.cities.search({ query: text, limit: 8 }))
          .then((found) => {
            if (seq !== query.current.seq) return;
            setItems(found);
            setActive(found.length > 0 && text.trim() !== '' ? 0 : -1);
            // Only while the field still has focus: a late answer must not pop a list under another field.
            if (openWhenFound && document.activeElement === inputEl.current)
              setOpen(found.length > 0 || text.trim() !== '');
          })
          .catch(() => {
            if (seq === query.current.seq) setItems([]);
          });
      },
      text === '' ? 0 : 60,
    );
  }

  function pick(s: CitySuggestion): void {
    const postal = s.postal_code ?? '';
    autoPostal.current = postal;
    props.onChange({ city: s.name, postal });
    setOpen(false);
    setActive(-1);
  }

  function onCityInput(text: string): void {
    const postal = autoPostal.current !== null && props.postal === autoPostal.current ? '' : props.postal;
    if (postal !== props.postal) autoPostal.current = null;
    props.onChange({ city: text, postal });
    search(text, true);
  }

  // Leaving the field without picking keeps the postal code as it is: an empty one is resolved by the core
  // from the city table (the same main code a pick would have shown). Filling it in on blur would race
  // with a fast typist already typing the postal code.
  function onBlur(): void {
    setOpen(false);
  }

  const showList = open && (items.length > 0 || props.city.trim() !== '');
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
            aria-describedby={props.cityError ? `${props.name}-city-error` : undefined}
            invalid={Boolean(props.cityError)}
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
                const n = items.length;
                if (n === 0) return;
                setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
              } else if (e.key === 'Enter' && showList && active >= 0 && items[active]) {
                // Enter picks the suggestion; the next Enter quotes.
                e.preventDefault();
                pick(items[active]);
              } else if (e.key === 'Escape' && showList) {
                e.preventDefault();
                e.stopPropagation();
                setOpen(false);
              } else if (
                e.key === 'Tab' &&
                showList &&
                active >= 0 &&
                items[active] &&
                props.city.trim() !== ''
              ) {
                pick(items[active]);
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
              {items.length === 0 ? (
                <li className="combobox-empty" role="presentation">
                  {t('noCities')}
                </li>
              ) : (
                items.map((s, i) => (
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
                ))
              )}
            </ul>
          ) : null}
        </div>
        {props.cityError ? (
          <div className="field-error" id={`${props.name}-city-error`}>
            {props.cityError}
          </div>
        ) : null}
      </div>
      <div className="field postal-input">
        <label htmlFor={`${props.name}-postal`}>{props.postalLabel}</label>
        <Input
          id={`${props.name}-postal`}
          inputMode="numeric"
          maxLength={7}
          value={props.postal}
          invalid={Boolean(props.postalError)}
          aria-describedby={props.postalError ? `${props.name}-postal-error` : undefined}
          data-testid={`${props.name}-postal`}
          onChange={(e) => {
            autoPostal.current = null;
            props.onChange({ city: props.city, postal: e.currentTarget.value });
          }}
        />
        {props.postalError ? (
          <div className="field-error" id={`${props.name}-postal-error`}>
            {props.postalError}
          </div>
        ) : null}
      </div>
    </div>
  );
}
