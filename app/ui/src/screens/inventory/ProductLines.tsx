import { useId } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import type { Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { LineItemsEditor } from '../../components/LineItemsEditor';
import { useT } from '../../i18n';
import type { Refs } from './data';
import { messages } from './i18n';
import { CostField, ProductDatalist, ProductField } from './ProductField';

/** One line of a form's products: an existing detail (detailId set, product fixed) or a new one. */
export interface Line {
  key: number;
  detailId?: string;
  productId: string;
  quantity: string;
  cost?: string;
}

let nextKey = 1;
export const newLine = (init: Partial<Omit<Line, 'key'>> = {}): Line => ({ key: nextKey++, productId: '', quantity: '', ...init });

/** The field names a lines table shows (for FormProblem's `shown`). */
export function lineFieldNames(prefix: string, count: number, names: readonly string[]): string[] {
  const out = [prefix];
  for (let i = 0; i < count; i++) for (const n of names) out.push(`${prefix}[${i}].${n}`);
  return out;
}

interface Props {
  lines: Line[];
  onChange(lines: Line[]): void;
  refs: Refs;
  problem: ProblemView | null;
  /** The API's array name: `details` → fields `details[0].quantity`. */
  prefix: string;
  caption: string;
  withCost?: boolean;
  /** The API field naming an existing line (`shippingDetailId`): its errors show with the product. */
  idField?: string;
  disabled?: boolean;
  /** New lines may be added (and removed again before saving). */
  canAdd?: boolean;
}

/**
 * A table of products and quantities. A new line takes a product by its ID or code (a datalist
 * offers the products); an existing line's product is fixed. Every input carries the API's
 * field name, so the API's `[details[1].quantity]` message appears under that very input.
 */
export function ProductLines({ lines, onChange, refs, problem, prefix, caption, withCost, idField, disabled, canAdd = true }: Props) {
  const t = useT(messages);
  const listId = `products-${useId()}`;
  const set = (key: number, patch: Partial<Line>) => onChange(lines.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const arrayError = fieldError(problem, prefix);
  const name = (i: number, field: string) => `${prefix}[${i}].${field}`;
  const label = (i: number, what: string) => <span className="visually-hidden">{`${t('inv.line', { n: i + 1 })} ${what}`}</span>;
  // An existing line's id names it in the API's messages: they show with its product.
  const productError = (i: number) => [fieldError(problem, name(i, 'productId')), idField ? fieldError(problem, name(i, idField)) : undefined].filter(Boolean).join('; ') || undefined;
  const columns: Column<Line>[] = [
    { key: 'n', header: '#', cell: (_, i) => i + 1 },
    {
      key: 'product',
      header: t('inv.product'),
      cellClass: 'inv-product-cell',
      cell: (line, i) =>
        line.detailId ? (
          <div className="field" data-field={name(i, 'productId')}>
            <span data-testid="line-product">{refs.productLabel(line.productId)}</span>
            {productError(i) ? <small className="field-error">{productError(i)}</small> : null}
          </div>
        ) : (
          <ProductField
            refs={refs}
            label={label(i, t('inv.product'))}
            name={name(i, 'productId')}
            list={listId}
            value={line.productId}
            placeholder={t('inv.productHint')}
            onChange={(productId) => set(line.key, { productId })}
            error={productError(i)}
          />
        ),
    },
    {
      key: 'quantity',
      header: t('inv.quantity'),
      headerClass: 'num',
      cellClass: 'inv-qty-cell',
      cell: (line, i) => (
        <Field
          label={label(i, t('inv.quantity'))}
          name={name(i, 'quantity')}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          value={line.quantity}
          onChange={(e) => set(line.key, { quantity: e.target.value })}
          error={fieldError(problem, name(i, 'quantity'))}
        />
      ),
    },
  ];
  if (withCost) {
    columns.push({
      key: 'cost',
      header: t('inv.cost'),
      headerClass: 'num',
      cellClass: 'inv-cost-cell',
      cell: (line, i) => <CostField refs={refs} line={line} label={label(i, t('inv.cost'))} name={name(i, 'cost')} problem={problem} onChange={(cost) => set(line.key, { cost })} />,
    });
  }
  return (
    <LineItemsEditor
      caption={caption}
      className="inv-lines"
      disabled={disabled}
      lines={lines}
      lineKey={(line) => line.key}
      lineProps={(_, i) => ({ 'data-line': i })}
      columns={columns}
      actionsLabel={t('inv.lineActions')}
      removable={(line) => !line.detailId && canAdd && lines.length > 1}
      removeLabel={(n) => t('inv.removeLine', { n })}
      onRemove={(line) => onChange(lines.filter((l) => l.key !== line.key))}
      addLabel={canAdd ? t('inv.addLine') : undefined}
      onAdd={canAdd ? () => onChange([...lines, newLine()]) : undefined}
      buttonClass="secondary outline inv-small"
      before={<ProductDatalist id={listId} refs={refs} />}
      after={
        <>
          {arrayError ? (
            <small className="field-error" data-field={prefix}>
              {arrayError}
            </small>
          ) : null}
          {withCost ? <small className="inv-muted">{t('inv.costNote')}</small> : null}
        </>
      }
    />
  );
}
