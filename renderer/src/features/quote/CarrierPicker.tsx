// "Перевозчики [все ▾]": a button that opens a small list of checkboxes, each with «только» beside it
// (quoting one carrier is one action, #17 item 6). The button has a fixed width and says «все», a name or
// «3 из 8», and the list floats over the page: opening it or ticking a box never moves a field.
// Keys: Space or ↓ open the list on its first box; Enter on the button or on a box quotes (like every
// other field of the form); Esc closes the list back to the button.
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { useLang, useT } from '../../i18n';
import { namedIn } from '../../lib/carrier-names';
import { onlyCarrier, pickerSummary, tickedCodes, toggleCarrier } from './carrier-pick';
import './picker.css';

export function CarrierPicker(props: {
  carriers: readonly QuoteCarrier[];
  value: string[] | null;
  onChange: (value: string[] | null) => void;
  /** Enter: quote with the carriers as ticked. */
  onSubmit: () => void;
}): ReactNode {
  const t = useT('quote');
  const [open, setOpen] = useState(false);
  /** Opened from the keyboard: the first box takes the focus. */
  const focusFirst = useRef(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { lang } = useLang();
  const { value } = props;
  // Every name below (boxes, «только», the closed button's title) in the UI language.
  const carriers = useMemo(() => namedIn(props.carriers, lang), [props.carriers, lang]);

  useEffect(() => {
    if (!open) return;
    if (focusFirst.current) {
      focusFirst.current = false;
      root.current?.querySelector<HTMLInputElement>('.picker-popup input')?.focus();
    }
    const onDown = (e: MouseEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const ticked = tickedCodes(value, carriers);
  const summary = pickerSummary(value, carriers, {
    all: t('carriersAll'),
    count: (n, total) => t('picker.count', { n, total }),
  });

  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div
      className="field carrier-picker"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        } else if (
          e.key === 'Enter' &&
          !e.altKey &&
          !e.ctrlKey &&
          !e.metaKey &&
          !e.shiftKey &&
          (e.target === button.current || (e.target as HTMLInputElement).type === 'checkbox')
        ) {
          // A box or the button: Enter quotes, as in every other field («только» keeps its own Enter).
          e.preventDefault();
          setOpen(false);
          props.onSubmit();
        }
      }}
      onBlur={(e) => {
        if (!root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <span className="field-label" id={`${id}-label`}>
        {t('carriers')}
      </span>
      <button
        type="button"
        ref={button}
        className="select picker-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-labelledby={`${id}-label ${id}-value`}
        title={summary.title}
        onClick={(e) => {
          // detail 0: Space on the button, not a mouse click.
          if (!open && e.detail === 0) focusFirst.current = true;
          setOpen((o) => !o);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            focusFirst.current = true;
            setOpen(true);
          }
        }}
        data-testid="carrier-picker"
      >
        <span id={`${id}-value`} className="picker-value" data-testid="carrier-picker-value">
          {summary.text}
        </span>
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="picker-popup" role="group" aria-labelledby={`${id}-label`}>
          {carriers.map((c) => (
            <div key={c.code} className="picker-row">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={ticked.has(c.code)}
                  onChange={(e) =>
                    props.onChange(toggleCarrier(value, carriers, c.code, e.currentTarget.checked))
                  }
                  data-testid={`carrier-option-${c.code}`}
                />
                {c.name}
                {!c.enabled ? <span className="muted"> ({t('carrierOff')})</span> : null}
              </label>
              <button
                type="button"
                className="link-button picker-only"
                aria-label={t('picker.onlyLabel', { name: c.name })}
                title={t('picker.onlyLabel', { name: c.name })}
                onClick={() => {
                  props.onChange(onlyCarrier(carriers, c.code));
                  close();
                }}
                data-testid={`carrier-only-${c.code}`}
              >
                {t('picker.only')}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="link-button picker-all"
            disabled={value === null}
            onClick={() => {
              props.onChange(null);
              close();
            }}
            data-testid="carrier-all"
          >
            {t('picker.all')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
