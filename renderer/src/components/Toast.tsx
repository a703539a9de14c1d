// Short confirmations ("Скопировано") and non-blocking errors, bottom right, gone after a few seconds. A
// toast may carry one action ("Вернуть" after clearing the form): it stays longer, so there is time to press it.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n';

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
const ToastContext = createContext<ShowToast>(() => {});

export function useToast(): ShowToast {
  return useContext(ToastContext);
}

export function ToastProvider(props: { children: ReactNode }): ReactNode {
  const t = useT();
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setItems((list) => list.filter((x) => x.id !== id)), []);
  const show = useCallback<ShowToast>(
    (text, kind = 'info', action) => {
      const id = nextId.current++;
      setItems((list) => [...list.slice(-3), { id, text, kind, ...(action ? { action } : {}) }]);
      setTimeout(() => dismiss(id), kind === 'error' || action ? 8000 : 3500);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {props.children}
      <div className="toasts" aria-live="polite" role="status" data-testid="toasts">
        {items.map((item) => (
          <div key={item.id} className={`toast toast-${item.kind}`} data-testid="toast">
            <span>{item.text}</span>
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
    </ToastContext.Provider>
  );
}
