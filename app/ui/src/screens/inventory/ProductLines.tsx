import { useId } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { cost as formatCost } from '../../shared/format';
import { useT } from '../../i18n';
import type { Refs } from './data';
import { messages } from './i18n';

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
  return (
    <fieldset className="inv-lines" disabled={disabled}>
      <legend>{caption}</legend>
      <datalist id={listId}>
        {refs.products.map((p) => (
          <option key={p.productId} value={p.productId}>
            {`${p.productCode} ${p.productName}`}
          </option>
        ))}
      </datalist>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('inv.product')}</th>
            <th scope="col" className="num">
              {t('inv.quantity')}
            </th>
            {withCost ? (
              <th scope="col" className="num">
                {t('inv.cost')}
              </th>
            ) : null}
            <th scope="col">
              <span className="inv-sr">{t('inv.lineActions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => {
            const n = i + 1;
            const name = (field: string) => `${prefix}[${i}].${field}`;
            const product = refs.product(refs.resolveProduct(line.productId));
            const idError = idField ? fieldError(problem, name(idField)) : undefined;
            return (
              <tr key={line.key} data-line={i}>
                <td>{n}</td>
                <td className="inv-product-cell">
                  {line.detailId ? (
                    <div className="field" data-field={name('productId')}>
                      <span data-testid="line-product">{refs.productLabel(line.productId)}</span>
                      {fieldError(problem, name('productId')) || idError ? (
                        <small className="field-error">{[fieldError(problem, name('productId')), idError].filter(Boolean).join('; ')}</small>
                      ) : null}
                    </div>
                  ) : (
                    <Field
                      label={<span className="inv-sr">{`${t('inv.line', { n })} ${t('inv.product')}`}</span>}
                      name={name('productId')}
                      list={listId}
                      value={line.productId}
                      placeholder={t('inv.productHint')}
                      autoComplete="off"
                      onChange={(e) => set(line.key, { productId: e.target.value })}
                      error={[fieldError(problem, name('productId')), idError].filter(Boolean).join('; ') || undefined}
                      hint={line.productId ? (product ? `${product.productCode} ${product.productName}` : t('inv.unknownProduct')) : undefined}
                    />
                  )}
                </td>
                <td className="inv-qty-cell">
                  <Field
                    label={<span className="inv-sr">{`${t('inv.line', { n })} ${t('inv.quantity')}`}</span>}
                    name={name('quantity')}
                    type="number"
                    min={0}
                    step={1}
                    inputMode="numeric"
                    value={line.quantity}
                    onChange={(e) => set(line.key, { quantity: e.target.value })}
                    error={fieldError(problem, name('quantity'))}
                  />
                </td>
                {withCost ? (
                  <td className="inv-cost-cell">
                    <Field
                      label={<span className="inv-sr">{`${t('inv.line', { n })} ${t('inv.cost')}`}</span>}
                      name={name('cost')}
                      inputMode="decimal"
                      value={line.cost ?? ''}
                      placeholder={product?.cost ? formatCost(product.cost) : t('inv.costHint')}
                      onChange={(e) => set(line.key, { cost: e.target.value })}
                      error={fieldError(problem, name('cost'))}
                    />
                  </td>
                ) : null}
                <td>
                  {!line.detailId && canAdd && lines.length > 1 ? (
                    <button type="button" className="secondary outline inv-small" onClick={() => onChange(lines.filter((l) => l.key !== line.key))}>
                      {t('inv.removeLine', { n })}
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {arrayError ? (
        <small className="field-error" data-field={prefix}>
          {arrayError}
        </small>
      ) : null}
      {withCost ? <small className="inv-muted">{t('inv.costNote')}</small> : null}
      {canAdd ? (
        <button type="button" className="secondary outline inv-small" onClick={() => onChange([...lines, newLine()])}>
          {t('inv.addLine')}
        </button>
      ) : null}
    </fieldset>
  );
}
