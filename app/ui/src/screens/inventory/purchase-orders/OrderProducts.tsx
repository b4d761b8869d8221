import { useId } from 'react';
import { fieldError, type ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { cost as formatCost, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import type { Refs } from '../data';
import { messages } from './i18n';

/** A product row of the order form: the product, an optional cost and a quantity per delivery store id. */
export interface OrderRow {
  key: number;
  productId: string;
  cost: string;
  quantities: Record<string, string>;
}

let nextKey = 1;
export const newOrderRow = (): OrderRow => ({ key: nextKey++, productId: '', cost: '', quantities: {} });

/** Every field name the products matrix shows, for FormProblem's `shown`. */
export function orderFieldNames(rows: number, stores: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    out.push(`products[${i}].productId`, `products[${i}].cost`, `products[${i}].taxRate`, `products[${i}].deliveryStore`);
    for (let j = 0; j < stores; j++) out.push(`products[${i}].deliveryStore[${j}].quantity`, `products[${i}].deliveryStore[${j}].storeId`);
  }
  return out;
}

/**
 * Products × delivery stores: one row per product, one quantity column per chosen store. Inputs
 * carry the API's names with the store's column (`products[0].deliveryStore[1].quantity`); the
 * form maps the API's positions (of the quantities actually sent) back to those columns.
 */
export function OrderProducts({ rows, onChange, stores, refs, problem }: { rows: OrderRow[]; onChange(rows: OrderRow[]): void; stores: string[]; refs: Refs; problem: ProblemView | null }) {
  const t = useT(messages);
  const { lang } = useLang();
  const listId = `po-products-${useId()}`;
  const set = (key: number, patch: Partial<OrderRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const err = (f: string) => fieldError(problem, f);

  return (
    <fieldset className="inv-lines">
      <legend>{t('po.products')}</legend>
      <small className="inv-muted">{stores.length ? `${t('po.productsHint')} ${t('inv.costNote')}` : t('po.pickStores')}</small>
      {err('products') ? <small className="field-error" data-field="products">{err('products')}</small> : null}
      <datalist id={listId}>
        {refs.products.map((p) => (
          <option key={p.productId} value={p.productId}>
            {`${p.productCode} ${p.productName}`}
          </option>
        ))}
      </datalist>
      <div className="inv-table-wrap">
        <table className="inv-matrix" data-testid="order-matrix">
          <thead>
            <tr>
              <th scope="col">{t('inv.product')}</th>
              <th scope="col">{t('inv.cost')}</th>
              {stores.map((s) => (
                <th scope="col" key={s} className="num">
                  {refs.storeName(s)}
                </th>
              ))}
              <th scope="col" className="num">
                {t('po.totalQuantity')}
              </th>
              <th scope="col">
                <span className="inv-sr">{t('inv.lineActions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const n = i + 1;
              const product = refs.product(refs.resolveProduct(row.productId));
              const total = stores.reduce((sum, s) => sum + (Number(row.quantities[s]) || 0), 0);
              return (
                <tr key={row.key} data-row={i}>
                  <td className="inv-product-cell">
                    <Field
                      label={<span className="inv-sr">{`${t('inv.line', { n })} ${t('inv.product')}`}</span>}
                      name={`products[${i}].productId`}
                      list={listId}
                      autoComplete="off"
                      placeholder={t('inv.productHint')}
                      value={row.productId}
                      onChange={(e) => set(row.key, { productId: e.target.value })}
                      error={[err(`products[${i}].productId`), err(`products[${i}].deliveryStore`), err(`products[${i}].taxRate`)].filter(Boolean).join('; ') || undefined}
                      hint={row.productId ? (product ? `${product.productCode} ${product.productName}` : t('inv.unknownProduct')) : undefined}
                    />
                  </td>
                  <td className="inv-cost-cell">
                    <Field
                      label={<span className="inv-sr">{`${t('inv.line', { n })} ${t('inv.cost')}`}</span>}
                      name={`products[${i}].cost`}
                      inputMode="decimal"
                      value={row.cost}
                      placeholder={product?.cost ? formatCost(product.cost) : t('inv.costHint')}
                      onChange={(e) => set(row.key, { cost: e.target.value })}
                      error={err(`products[${i}].cost`)}
                    />
                  </td>
                  {stores.map((s, j) => (
                    <td key={s} className="inv-qty-cell">
                      <Field
                        label={<span className="inv-sr">{`${t('inv.line', { n })} ${refs.storeName(s)} ${t('inv.quantity')}`}</span>}
                        name={`products[${i}].deliveryStore[${j}].quantity`}
                        type="number"
                        min={0}
                        step={1}
                        inputMode="numeric"
                        value={row.quantities[s] ?? ''}
                        onChange={(e) => set(row.key, { quantities: { ...row.quantities, [s]: e.target.value } })}
                        error={[err(`products[${i}].deliveryStore[${j}].quantity`), err(`products[${i}].deliveryStore[${j}].storeId`)].filter(Boolean).join('; ') || undefined}
                      />
                    </td>
                  ))}
                  <td className="num">{quantity(total, lang)}</td>
                  <td>
                    {rows.length > 1 ? (
                      <button type="button" className="secondary outline inv-small" onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
                        {t('inv.removeLine', { n })}
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <button type="button" className="secondary outline inv-small" onClick={() => onChange([...rows, newOrderRow()])}>
        {t('po.addProduct')}
      </button>
    </fieldset>
  );
}
