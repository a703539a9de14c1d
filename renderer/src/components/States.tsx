// Empty, loading and error states: each says what is going on and what to do next, in plain words.
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useLang, useT } from '../i18n';
import { Button } from './Button';

export function EmptyState(props: {
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  'data-testid'?: string;
}): ReactNode {
  return (
    <div className="state state-empty" data-testid={props['data-testid']}>
      <p className="state-title">{props.title}</p>
      {props.children}
      {props.actions ? <div className="state-actions">{props.actions}</div> : null}
    </div>
  );
}

export function LoadingState(props: { children?: ReactNode }): ReactNode {
  const t = useT();
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {props.children ?? t('common.loading')}
    </div>
  );
}

/** Shows any thrown value as a sentence (never a raw error object), with an optional retry. */
export function ErrorState(props: {
  error: unknown;
  title?: ReactNode;
  onRetry?: () => void;
  'data-testid'?: string;
}): ReactNode {
  const t = useT();
  const { lang } = useLang();
  return (
    <div className="state state-error" role="alert" data-testid={props['data-testid'] ?? 'error-state'}>
      <p className="state-title">{props.title ?? t('common.error.title')}</p>
      <p>{errorMessage(props.error, lang)}</p>
      {props.onRetry ? (
        <div className="state-actions">
          <Button onClick={props.onRetry}>{t('common.retry')}</Button>
        </div>
      ) : null}
    </div>
  );
}
