// The one labelled text field: Field (label, hint, error, screen-reader wiring) around an Input. Every form
// of the app uses it, so a field looks and behaves the same everywhere (issue #9: the Field + Input block
// was written out by hand in every form).
import type { ReactNode } from 'react';
import { Field, Input, type InputProps } from './Field';

export interface TextFieldProps extends Omit<InputProps, 'id' | 'value' | 'onChange' | 'invalid'> {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field and read with it; also marks the input invalid. */
  error?: ReactNode;
  hint?: ReactNode;
  /** Generated when left out. */
  id?: string;
  /** A unit after the input ("кг", "₽"). */
  unit?: ReactNode;
  /** Class of the field (the wrapper); className goes to the input. */
  fieldClassName?: string;
  /** Invalid because of a message shown elsewhere (the quote form lists messages under each row). */
  invalid?: boolean;
  /** Ids of messages shown elsewhere that describe this field. */
  describedBy?: string | undefined;
}

export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  id,
  unit,
  fieldClassName,
  invalid: invalidElsewhere = false,
  describedBy: describedElsewhere,
  ...input
}: TextFieldProps): ReactNode {
  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      {...(id ? { htmlFor: id } : {})}
      {...(fieldClassName ? { className: fieldClassName } : {})}
    >
      {({ id: inputId, describedBy, invalid }) => {
        const control = (
          <Input
            {...input}
            id={inputId}
            aria-describedby={[describedBy, describedElsewhere].filter(Boolean).join(' ') || undefined}
            invalid={invalid || invalidElsewhere}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
        );
        return unit ? (
          <div className="with-unit">
            {control}
            <span className="unit">{unit}</span>
          </div>
        ) : (
          control
        );
      }}
    </Field>
  );
}
