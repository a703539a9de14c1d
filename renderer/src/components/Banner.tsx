import type { ReactNode } from 'react';

export interface BannerProps {
  tone?: 'info' | 'warning' | 'danger';
  children: ReactNode;
  actions?: ReactNode;
  /** Full-width strip under the top bar (true) or a box inside a screen (false). */
  inline?: boolean;
  'data-testid'?: string;
}

const ICON = { info: 'ℹ', warning: '⚠', danger: '✕' } as const;

export function Banner({
  tone = 'info',
  children,
  actions,
  inline = false,
  ...rest
}: BannerProps): ReactNode {
  return (
    <div
      className={`banner banner-${tone}${inline ? ' banner-inline' : ''}`}
      role={tone === 'info' ? 'status' : 'alert'}
      data-testid={rest['data-testid']}
    >
      <span className="banner-icon" aria-hidden="true">
        {ICON[tone]}
      </span>
      <div className="banner-body">{children}</div>
      {actions ? <div className="banner-actions">{actions}</div> : null}
    </div>
  );
}
