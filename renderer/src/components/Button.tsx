import { useContext, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
import { ServerGateContext } from './server-gate';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'md' | 'sm';
  /** A keyboard hint shown inside the button: "⏎", "Ctrl+K". */
  kbd?: string;
  busy?: boolean;
  /**
   * The action runs on the company server (#20): disabled, with the reason as its tooltip, while the server
   * is away; never run against local data instead. No effect on a local desk.
   */
  needsServer?: boolean;
  ref?: Ref<HTMLButtonElement>;
  children?: ReactNode;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  kbd,
  busy = false,
  className,
  children,
  type = 'button',
  disabled,
  needsServer = false,
  title,
  ...rest
}: ButtonProps): ReactNode {
  const gate = useContext(ServerGateContext);
  const gated = needsServer && gate.blocked;
  const classes = ['btn', `btn-${variant}`, size === 'sm' ? 'btn-sm' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || busy || gated}
      aria-busy={busy || undefined}
      title={gated ? gate.reason : title}
      data-gated={gated || undefined}
      {...rest}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
      {kbd ? <kbd aria-hidden="true">{kbd}</kbd> : null}
    </button>
  );
}
