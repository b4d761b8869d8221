import type { ReactNode } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { useT } from '../../i18n';
import { cost as formatCost } from '../../shared/format';
import type { Refs } from './data';
import { messages } from './i18n';

/** The products as a datalist: an input with `list={id}` offers each by its id, showing code and name. */
export function ProductDatalist({ id, refs }: { id: string; refs: Refs }) {
  return (
    <datalist id={id}>
      {refs.products.map((p) => (
        <option key={p.productId} value={p.productId}>
          {`${p.productCode} ${p.productName}`}
        </option>
      ))}
    </datalist>
  );
}

/**
 * A product typed by its ID or its code (the datalist `list` offers them); the hint under it
 * names the product found, or says there is none. `name` is the API's field, so its error lands here.
 */
export function ProductField({
  refs,
  label,
  name,
  list,
  value,
  onChange,
  error,
  placeholder,
}: {
  refs: Refs;
  label: ReactNode;
  name: string;
  list: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  placeholder?: string;
}) {
  const t = useT(messages);
  const product = refs.product(refs.resolveProduct(value));
  return (
    <Field
      label={label}
      name={name}
      list={list}
      autoComplete="off"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={value ? (product ? `${product.productCode} ${product.productName}` : t('inv.unknownProduct')) : undefined}
    />
  );
}

/** A line's cost (tax excluded); empty takes the product master's, which the placeholder shows. */
export function CostField({ refs, line, label, name, problem, onChange }: { refs: Refs; line: { productId: string; cost?: string }; label: ReactNode; name: string; problem: ProblemView | null; onChange(cost: string): void }) {
  const t = useT(messages);
  const product = refs.product(refs.resolveProduct(line.productId));
  return (
    <Field
      label={label}
      name={name}
      inputMode="decimal"
      value={line.cost ?? ''}
      placeholder={product?.cost ? formatCost(product.cost) : t('inv.costHint')}
      onChange={(e) => onChange(e.target.value)}
      error={fieldError(problem, name)}
    />
  );
}
