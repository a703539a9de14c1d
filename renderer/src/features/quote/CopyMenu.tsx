// «Копировать ▾» above the results: the button copies the table as columns for Excel and 1С; the arrow
// opens the other ways out: as readable text, and as a CSV or XLSX file (#17 item 5). A menu button in the
// WAI-ARIA pattern: Enter, Space or ↓ open it on the first item, ↑/↓ move, Esc closes back to the arrow,
// Tab or a click elsewhere closes it. It floats over the table, so opening it moves nothing.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../components';
import { useT } from '../../i18n';
import './output.css';
import type { ExportFormat } from './useQuoteOutput';

export function CopyMenu(props: {
  onCopy: () => void;
  onCopyText: () => void;
  /** «Копировать цену клиента» (#21); absent when no rate has a customer's price. */
  onCopyCustomer?: (() => void) | undefined;
  onExport: (format: ExportFormat) => void;
  /** False while the quote is still running or was never stored: there is no file to write yet. */
  canExport: boolean;
  exporting: ExportFormat | null;
}): ReactNode {
  const t = useT('quote');
  const tx = useT('quoteExt');
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const arrow = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    // The first item takes the focus once it is on screen.
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not([disabled])')?.focus();
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const items = (): HTMLButtonElement[] => [
    ...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? []),
  ];

  const choose = (action: () => void) => (): void => {
    setOpen(false);
    arrow.current?.focus();
    action();
  };

  const onMenuKey = (e: KeyboardEvent<HTMLElement>): void => {
    const list = items();
    const i = list.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      const next = e.key === 'ArrowDown' ? (i + 1) % list.length : (i - 1 + list.length) % list.length;
      list[next]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      list[e.key === 'Home' ? 0 : list.length - 1]?.focus();
    } else if (e.key === 'Escape') {
      // Only the menu closes: the screen's Esc (deselect, clear the form) must not run as well.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      arrow.current?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div className="copy-menu" ref={root}>
      <Button
        size="sm"
        variant="ghost"
        onClick={props.onCopy}
        title={t('copyAllHint')}
        className="copy-main"
        data-testid="copy-all"
      >
        {t('copyAll')}
      </Button>
      <button
        type="button"
        ref={arrow}
        className="btn btn-ghost btn-sm copy-more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={t('copyMore')}
        title={t('copyMore')}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(true);
          }
        }}
        data-testid="copy-more"
      >
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="copy-menu-list" role="menu" id={`${id}-menu`} onKeyDown={onMenuKey}>
          <button type="button" role="menuitem" onClick={choose(props.onCopyText)} data-testid="copy-text">
            {t('copyText')}
          </button>
          {props.onCopyCustomer ? (
            <button
              type="button"
              role="menuitem"
              title={tx('copyCustomerHint')}
              onClick={choose(props.onCopyCustomer)}
              data-testid="copy-customer"
            >
              {tx('copyCustomer')}
            </button>
          ) : null}
          <button
            type="button"
            role="menuitem"
            disabled={!props.canExport || props.exporting !== null}
            onClick={choose(() => props.onExport('csv'))}
            data-testid="quote-export-csv"
          >
            {t('exportCsv')}
          </button>
          <button
            type="button"
            role="menuitem"
            disabled={!props.canExport || props.exporting !== null}
            onClick={choose(() => props.onExport('xlsx'))}
            data-testid="quote-export-xlsx"
          >
            {t('exportXlsx')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
