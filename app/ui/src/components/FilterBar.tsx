import type { FormEvent, ReactNode } from 'react';
import './FilterBar.css';

/** One choice of a select: the value sent, the label shown. */
export interface Choice {
  value: string;
  label: string;
}

/**
 * The filters above a list: a named form (a landmark) whose selects apply as they change; a
 * form with typed filters applies them on submit. `action` (a "new" button) stands at its right.
 */
export function FilterBar({ label, onSubmit, action, children }: { label: string; onSubmit?(e: FormEvent): void; action?: ReactNode; children: ReactNode }) {
  const form = (
    <form className="filter-bar" aria-label={label} onSubmit={onSubmit ?? ((e) => e.preventDefault())}>
      {children}
    </form>
  );
  if (!action) return form;
  return (
    <div className="list-toolbar">
      {form}
      {action}
    </div>
  );
}

/** A labelled select of a filter bar; `any` is the empty choice (no filter). */
export function SelectFilter({
  label,
  name,
  value,
  onChange,
  any,
  options,
  disabled,
}: {
  label: ReactNode;
  name: string;
  value: string;
  onChange(value: string): void;
  any?: string;
  options: readonly Choice[];
  disabled?: boolean | undefined;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <Options any={any} options={options} />
      </select>
    </label>
  );
}

/** The <option>s of a select: the empty choice first when `any` is given. */
export function Options({ any, options }: { any?: string | undefined; options: readonly Choice[] }) {
  return (
    <>
      {any !== undefined ? <option value="">{any}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
