import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'ok' | 'warn' | 'danger';

/** A short label in capitals or a status word. The text carries the meaning; colour only supports it. */
export function Badge(props: {
  tone?: BadgeTone;
  title?: string;
  children: ReactNode;
  'data-testid'?: string;
}): ReactNode {
  return (
    <span
      className={`badge badge-${props.tone ?? 'neutral'}`}
      title={props.title}
      data-testid={props['data-testid']}
    >
      {props.children}
    </span>
  );
}
