// Short confirmations ("Скопировано") and non-blocking errors, gone after a few seconds. A toast may carry
// one action ("Вернуть" after clearing the form): it stays longer, so there is time to press it.
//
// Where they show (#17 item 7): in the status bar at the bottom (ToastRegion, placed by the shell), never
// over the page, so a toast cannot hide a price in the table, even in a 1024×640 window. They belong to
// the screen that showed them: switching screens takes them away (useToastsLeaveWith).
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useT } from '../i18n';
import './toast.css';

export type ToastKind = 'info' | 'error';
export interface ToastAction {
  label: string;
  onClick: () => void;
  'data-testid'?: string;
}

interface ToastItem {
  id: number;
  text: string;
  kind: ToastKind;
  action?: ToastAction;
}

type ShowToast = (text: string, kind?: ToastKind, action?: ToastAction) => void;

interface ToastState {
  show: ShowToast;
  items: readonly ToastItem[];
  dismiss: (id: number) => void;
  clear: () => void;
}

/** The status bar has room for two; an older one makes way for a newer one. */
const SHOWN = 2;

const ToastContext = createContext<ToastState>({
  show: () => {},
  items: [],
  dismiss: () => {},
  clear: () => {},
});

export function useToast(): ShowToast {
  return useContext(ToastContext).show;
}

export function ToastProvider(props: { children: ReactNode }): ReactNode {
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setItems((list) => list.filter((x) => x.id !== id));
  }, []);
  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    setItems([]);
  }, []);
  const show = useCallback<ShowToast>(
    (text, kind = 'info', action) => {
      const id = nextId.current++;
      setItems((list) => [...list.slice(-(SHOWN - 1)), { id, text, kind, ...(action ? { action } : {}) }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), kind === 'error' || action ? 8000 : 3500),
      );
    },
    [dismiss],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);
  const value = useMemo(() => ({ show, items, dismiss, clear }), [show, items, dismiss, clear]);
  return <ToastContext.Provider value={value}>{props.children}</ToastContext.Provider>;
}

/** Toasts leave with their screen: a new `scope` (the screen shown) clears them. */
export function useToastsLeaveWith(scope: string): void {
  const { clear } = useContext(ToastContext);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    clear();
  }, [scope, clear]);
}

/** The toasts themselves, in the status bar (the shell's footer). */
export function ToastRegion(): ReactNode {
  const t = useT();
  const { items, dismiss } = useContext(ToastContext);
  return (
    <div className="toasts" aria-live="polite" role="status" data-testid="toasts">
      {items.map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} data-testid="toast">
          <span className="toast-text" title={item.text}>
            {item.text}
          </span>
          {item.action ? (
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                dismiss(item.id);
                item.action?.onClick();
              }}
              data-testid={item.action['data-testid']}
            >
              {item.action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="toast-close"
            onClick={() => dismiss(item.id)}
            aria-label={t('common.close')}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
