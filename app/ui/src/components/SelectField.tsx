import type { ReactNode } from 'react';
import { Field } from './Field';
import { Options, type Choice } from './FilterBar';

/**
 * A labelled <select> of a form that shows the API's error for its field (see Field): `options`
 * are its choices, `any` an empty first choice (the API's default, "none").
 */
export function SelectField({
  label,
  name,
  value,
  onChange,
  options,
  any,
  error,
  hint,
  required,
  disabled,
}: {
  label: ReactNode;
  name: string;
  value: string;
  onChange(value: string): void;
  options: readonly Choice[];
  any?: string | undefined;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean | undefined;
  disabled?: boolean | undefined;
}) {
  return (
    <Field label={label} name={name} error={error} hint={hint} required={required}>
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <Options any={any} options={options} />
      </select>
    </Field>
  );
}
