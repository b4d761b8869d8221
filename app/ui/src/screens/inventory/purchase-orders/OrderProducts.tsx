import { useId } from 'react';
import { fieldError, type ProblemView } from '../../../api/problem';
import type { Column } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { LineItemsEditor } from '../../../components/LineItemsEditor';
import { useLang, useT } from '../../../i18n';
import { quantity } from '../../../shared/format';
import type { Refs } from '../data';
import { CostField, ProductDatalist, ProductField } from '../ProductField';
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
  const err = (...fields: string[]) => fields.map((f) => fieldError(problem, f)).filter(Boolean).join('; ') || undefined;
  const label = (i: number, what: string) => <span className="visually-hidden">{`${t('inv.line', { n: i + 1 })} ${what}`}</span>;
  const columns: Column<OrderRow>[] = [
    {
      key: 'product',
      header: t('inv.product'),
      cellClass: 'inv-product-cell',
      cell: (row, i) => (
        <ProductField
          refs={refs}
          label={label(i, t('inv.product'))}
          name={`products[${i}].productId`}
          list={listId}
          placeholder={t('inv.productHint')}
          value={row.productId}
          onChange={(productId) => set(row.key, { productId })}
          error={err(`products[${i}].productId`, `products[${i}].deliveryStore`, `products[${i}].taxRate`)}
        />
      ),
    },
    {
      key: 'cost',
      header: t('inv.cost'),
      cellClass: 'inv-cost-cell',
      cell: (row, i) => <CostField refs={refs} line={row} label={label(i, t('inv.cost'))} name={`products[${i}].cost`} problem={problem} onChange={(cost) => set(row.key, { cost })} />,
    },
    ...stores.map(
      (s, j): Column<OrderRow> => ({
        key: s,
        header: refs.storeName(s),
        headerClass: 'num',
        cellClass: 'inv-qty-cell',
        cell: (row, i) => (
          <Field
            label={label(i, `${refs.storeName(s)} ${t('inv.quantity')}`)}
            name={`products[${i}].deliveryStore[${j}].quantity`}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={row.quantities[s] ?? ''}
            onChange={(e) => set(row.key, { quantities: { ...row.quantities, [s]: e.target.value } })}
            error={err(`products[${i}].deliveryStore[${j}].quantity`, `products[${i}].deliveryStore[${j}].storeId`)}
          />
        ),
      }),
    ),
    { key: 'total', header: t('po.totalQuantity'), num: true, cell: (row) => quantity(stores.reduce((sum, s) => sum + (Number(row.quantities[s]) || 0), 0), lang) },
  ];

  return (
    <LineItemsEditor
      caption={t('po.products')}
      className="inv-lines"
      lines={rows}
      lineKey={(row) => row.key}
      lineProps={(_, i) => ({ 'data-row': i })}
      columns={columns}
      actionsLabel={t('inv.lineActions')}
      removable={() => rows.length > 1}
      removeLabel={(n) => t('inv.removeLine', { n })}
      onRemove={(row) => onChange(rows.filter((r) => r.key !== row.key))}
      addLabel={t('po.addProduct')}
      onAdd={() => onChange([...rows, newOrderRow()])}
      buttonClass="secondary outline inv-small"
      wrap="inv-table-wrap"
      table={{ className: 'inv-matrix', 'data-testid': 'order-matrix' }}
      before={
        <>
          <small className="inv-muted">{stores.length ? `${t('po.productsHint')} ${t('inv.costNote')}` : t('po.pickStores')}</small>
          {err('products') ? (
            <small className="field-error" data-field="products">
              {err('products')}
            </small>
          ) : null}
          <ProductDatalist id={listId} refs={refs} />
        </>
      }
    />
  );
}
