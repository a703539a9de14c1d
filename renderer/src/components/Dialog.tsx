// A modal dialog on the native <dialog> (showModal makes the rest of the page inert) with an explicit focus
// trap (Tab and Shift+Tab cycle inside), Esc to close, and focus returned to where it was.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n';
import { Button } from './Button';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Element to focus first; the first focusable element otherwise. */
  initialFocus?: string;
  width?: string;
  'data-testid'?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );
}

export function Dialog(props: DialogProps): ReactNode {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { open, onClose, initialFocus } = props;
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const first =
      (initialFocus ? dialog.querySelector<HTMLElement>(initialFocus) : null) ?? focusableIn(dialog)[0];
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      previous?.focus?.();
    };
  }, [open, initialFocus]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      style={props.width ? { width: props.width } : undefined}
      data-testid={props['data-testid']}
      onCancel={(e) => {
        // Esc: let React state decide (the effect above closes the element).
        e.preventDefault();
        onCloseRef.current();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Tab' || !ref.current) return;
        const items = focusableIn(ref.current);
        if (items.length === 0) {
          e.preventDefault();
          return;
        }
        const first = items[0]!;
        const last = items[items.length - 1]!;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }}
    >
      <div className="dialog-head">
        <h2 className="dialog-title" id={titleId}>
          {props.title}
        </h2>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={onClose}
          aria-label={t('common.dialog.close')}
        >
          ✕
        </button>
      </div>
      <div className="dialog-body">{props.children}</div>
      {props.footer ? <div className="dialog-foot">{props.footer}</div> : null}
    </dialog>
  );
}

/** The footer of a dialog that wraps a form: Cancel, then the primary button that submits `formId`. */
export function FormDialogFooter(props: {
  formId: string;
  onCancel: () => void;
  submitLabel: ReactNode;
  busy?: boolean;
  'data-testid'?: string;
}): ReactNode {
  const t = useT();
  return (
    <>
      <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
      <Button
        variant="primary"
        type="submit"
        form={props.formId}
        busy={props.busy ?? false}
        data-testid={props['data-testid']}
      >
        {props.submitLabel}
      </Button>
    </>
  );
}
