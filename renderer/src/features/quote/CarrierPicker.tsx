// "Перевозчики [все ▾]": a button that opens a small list of checkboxes. Nothing ticked or everything
// ticked both mean "all" (null), so a carrier added later is included by default.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { QuoteCarrier } from '../../api/quote-carriers';
import { useT } from '../../i18n';

export function CarrierPicker(props: {
  carriers: readonly QuoteCarrier[];
  value: string[] | null;
  onChange: (value: string[] | null) => void;
}): ReactNode {
  const t = useT('quote');
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const { carriers, value } = props;

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const selected = new Set(value ?? carriers.map((c) => c.code));
  const label =
    value === null || value.length === 0
      ? t('carriersAll')
      : carriers
          .filter((c) => selected.has(c.code))
          .map((c) => c.name)
          .join(', ') || value.join(', ');

  function toggle(code: string, on: boolean): void {
    const next = new Set(selected);
    if (on) next.add(code);
    else next.delete(code);
    const list = carriers.map((c) => c.code).filter((c) => next.has(c));
    props.onChange(list.length === 0 || list.length === carriers.length ? null : list);
  }

  return (
    <div
      className="field carrier-picker"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          e.stopPropagation();
          setOpen(false);
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
        className="select picker-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-labelledby={`${id}-label ${id}-value`}
        onClick={() => setOpen((o) => !o)}
        data-testid="carrier-picker"
      >
        <span id={`${id}-value`}>{label}</span> <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="picker-popup" role="group" aria-labelledby={`${id}-label`}>
          {carriers.map((c) => (
            <label key={c.code} className="checkbox">
              <input
                type="checkbox"
                checked={selected.has(c.code)}
                onChange={(e) => toggle(c.code, e.currentTarget.checked)}
                data-testid={`carrier-option-${c.code}`}
              />
              {c.name}
              {!c.enabled ? <span className="muted"> ({t('carrierOff')})</span> : null}
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}
