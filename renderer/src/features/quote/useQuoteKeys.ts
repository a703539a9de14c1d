// The quote screen's keyboard (ux.md "Keyboard first"): Ctrl+K → "Откуда", ↑/↓ through the results, Ctrl+C
// copies the selected one, Esc steps out one level at a time, Ctrl+Z brings a cleared form back, Alt+S
// swaps "Откуда" and "Куда" (the ⇄ button is out of the Tab order, #17 item 6).
//
// Esc never wipes work in one press (issue #9): an open list closes first (the field handles that), then a
// selected row is deselected, then focus leaves the results; only then is the form cleared, and that can
// be undone.
import { useEffect, useRef, type RefObject } from 'react';
import { rateKey, type Rate } from './logic';

export interface QuoteKeys {
  /** «Откуда»: the city field, or the warehouse picker when there are warehouses (#20). */
  fromRef: RefObject<HTMLInputElement | HTMLSelectElement | null>;
  /** The rows in the order shown. */
  visible: readonly Rate[];
  selected: string | null;
  setSelected: (key: string | null) => void;
  copySelected: () => void;
  clearForm: () => void;
  swap: () => void;
  /** Brings the cleared form back; false when there is nothing to bring back (Ctrl+Z stays the field's). */
  undoClear: () => boolean;
}

function inResults(el: Element | null): boolean {
  return Boolean(el?.closest('[data-testid="results"]'));
}

export function useQuoteKeys(k: QuoteKeys): void {
  const current = useRef(k);
  current.current = k;
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || document.querySelector('dialog[open]')) return;
      const target = e.target as HTMLElement | null;
      const k = current.current;
      const ctrl = (e.ctrlKey || e.metaKey) && !e.altKey;
      if (ctrl && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        const from = k.fromRef.current;
        from?.focus();
        if (from instanceof HTMLInputElement) from.select();
      } else if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyS') {
        // By the key's place, not its letter: on the Russian layout the same key types «ы».
        e.preventDefault();
        k.swap();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        if (k.selected) k.setSelected(null);
        else if (inResults(document.activeElement)) k.fromRef.current?.focus();
        else k.clearForm();
      } else if (ctrl && !e.shiftKey && e.key.toLowerCase() === 'z') {
        if (k.undoClear()) e.preventDefault();
      } else if (
        (e.key === 'ArrowDown' || e.key === 'ArrowUp') &&
        !e.altKey &&
        !e.ctrlKey &&
        target?.tagName !== 'SELECT' &&
        target?.tagName !== 'TEXTAREA'
      ) {
        if (k.visible.length === 0) return;
        e.preventDefault();
        const i = k.visible.findIndex((r) => rateKey(r) === k.selected);
        const next = e.key === 'ArrowDown' ? Math.min(i + 1, k.visible.length - 1) : i <= 0 ? 0 : i - 1;
        const key = rateKey(k.visible[next]!);
        k.setSelected(key);
        document.querySelector(`tr[data-key="${CSS.escape(key)}"]`)?.scrollIntoView({ block: 'nearest' });
      } else if (ctrl && e.key.toLowerCase() === 'c' && k.selected) {
        // Copying text the user selected stays the browser's job.
        const input = target as HTMLInputElement | null;
        const fieldSelection =
          input && 'selectionStart' in input && input.selectionStart !== input.selectionEnd;
        if (fieldSelection || (window.getSelection()?.toString() ?? '') !== '') return;
        e.preventDefault();
        k.copySelected();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
