import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface FieldProps {
  label: ReactNode;
  /** The id of the control inside; generated when left out (then pass children as a function). */
  htmlFor?: string;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  children:
    ReactNode | ((ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode);
}

/** A label above its control, with a hint or an error below, wired for screen readers. */
export function Field({ label, htmlFor, hint, error, className, children }: FieldProps): ReactNode {
  const generated = useId();
  const id = htmlFor ?? generated;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {typeof children === 'function' ? children({ id, describedBy, invalid: Boolean(error) }) : children}
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
      {hint && !error ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function Input({ invalid, className, ...rest }: InputProps): ReactNode {
  return (
    <input
      className={['input', className ?? ''].filter(Boolean).join(' ')}
      aria-invalid={invalid || undefined}
      spellCheck={false}
      autoComplete="off"
      {...rest}
    />
  );
}

export function Checkbox(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  disabled?: boolean;
  id?: string;
  'data-testid'?: string;
}): ReactNode {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        id={props.id}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
        data-testid={props['data-testid']}
      />
      {props.children}
    </label>
  );
}
