// «Отгрузка» (#21): the day the parcel is handed over, today unless picked, with «Сегодня» and «Завтра» one
// click away. They are out of the Tab order (like ⇄): from the keyboard the date field itself is typed or
// stepped with ↑/↓, and Tab goes on to the carriers as it did from «Ценность» before. Today is kept as an empty value, so it is never sent: the core then counts
// from today and applies each carrier's cut-off hour (a picked date is taken as it is).
import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Input } from '../../components';
import { useT } from '../../i18n';
import { moscowToday } from '../../lib/dates';
import { tomorrowOf } from './places-draft';

export function ShipDateField(props: {
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
}): ReactNode {
  const tx = useT('quoteExt');
  const today = useToday();
  const tomorrow = tomorrowOf(today);
  const shown = props.value === '' ? today : props.value;
  const pick = (date: string): void => props.onChange(date === today ? '' : date);
  return (
    <div className="field ship-date-field">
      <label htmlFor="ship-date" title={tx('shipDateHint')}>
        {tx('shipDate')}
      </label>
      <div className="with-unit">
        <Input
          id="ship-date"
          type="date"
          invalid={props.invalid}
          aria-describedby={props.describedBy}
          min={today}
          value={shown}
          // Clearing the field (Delete in Chromium's date input) means today again.
          onChange={(e) => pick(e.currentTarget.value === '' ? today : e.currentTarget.value)}
          onKeyDown={leaveOnTab}
          data-testid="ship-date"
        />
        <div className="segmented ship-quick" role="group" aria-label={tx('shipDate')}>
          <button
            type="button"
            tabIndex={-1}
            aria-pressed={shown === today}
            onClick={() => pick(today)}
            data-testid="ship-today"
          >
            {tx('today')}
          </button>
          <button
            type="button"
            tabIndex={-1}
            aria-pressed={shown === tomorrow}
            onClick={() => pick(tomorrow)}
            data-testid="ship-tomorrow"
          >
            {tx('tomorrow')}
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * Chromium's date field takes Tab for its own parts (day → month → year), which would cost the clerk three Tabs
 * to get past it: here Tab leaves the field as from any other (←/→ still move between its parts, ↑/↓ step).
 */
function leaveOnTab(e: KeyboardEvent<HTMLInputElement>): void {
  if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
  const form = e.currentTarget.form;
  if (!form) return;
  const stops = [...form.querySelectorAll<HTMLElement>('input, select, button, textarea, [tabindex]')].filter(
    (el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.offsetParent !== null,
  );
  const next = stops[stops.indexOf(e.currentTarget) + (e.shiftKey ? -1 : 1)];
  if (!next) return;
  e.preventDefault();
  next.focus();
}

/** Moscow's date, checked each minute: a desk left open overnight moves «Сегодня» on at midnight. */
function useToday(): string {
  const [today, setToday] = useState(moscowToday);
  useEffect(() => {
    const timer = setInterval(() => setToday(moscowToday()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return today;
}
