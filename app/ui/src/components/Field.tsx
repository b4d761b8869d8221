import { cloneElement, isValidElement, useId, type InputHTMLAttributes, type ReactElement, type ReactNode } from 'react';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  label: ReactNode;
  /** The API's field name (`categoryName`, `details[0].salesPrice`): also the input's name. */
  name: string;
  /** The message the API gave for this field (`fieldError(problem, name)`); marks the input invalid. */
  error?: string | undefined;
  /** A hint below the input, tied to it like the error. */
  hint?: ReactNode;
  /** A <select> or <textarea> (or any control) instead of the default <input>; it gets id, name and the aria attributes. */
  children?: ReactElement<Record<string, unknown>>;
}

/**
 * A labelled form control that shows the API's error for its field right under it:
 * `<Field label={t('name')} name="categoryName" value=… onChange=… error={fieldError(problem, 'categoryName')} />`.
 * The label is tied to the control (htmlFor), the error and hint by aria-describedby, and
 * aria-invalid makes Pico draw the control red; screen readers read the message with the field.
 */
export function Field({ label, name, error, hint, children, id, required, ...input }: FieldProps) {
  const auto = useId();
  const controlId = id ?? `field-${auto}`;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const aria = {
    id: controlId,
    name,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  const control = children && isValidElement(children) ? cloneElement(children, aria) : <input {...input} {...aria} />;
  return (
    <div className="field" data-field={name}>
      <label htmlFor={controlId}>{label}</label>
      {control}
      {error ? (
        <small id={errorId} className="field-error">
          {error}
        </small>
      ) : null}
      {hint ? <small id={hintId}>{hint}</small> : null}
    </div>
  );
}
